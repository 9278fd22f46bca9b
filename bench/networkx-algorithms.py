"""Times networkx on the benchmark's edge list: the same four algorithms as the data plane.

Usage: networkx-algorithms.py EDGE_LIST VERTICES RUNS SOURCE
Prints one JSON object: seconds per run of each algorithm, and a result to compare with.
"""

import json
import sys
import time

import networkx as nx

# nx.pagerank runs on scipy: imported here so that its first run does not time the import.
import scipy.sparse  # noqa: F401

edge_list, vertices, runs, source = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
started = time.perf_counter()
graph = nx.read_edgelist(edge_list, nodetype=int, create_using=nx.Graph)
# Vertices without edges count too (components, PageRank's total).
graph.add_nodes_from(range(vertices))
load_seconds = time.perf_counter() - started


def timed(fn):
    seconds = []
    result = None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        seconds.append(time.perf_counter() - t)
    return seconds, result


algorithms = {
    "pagerank": lambda: max(nx.pagerank(graph, alpha=0.85, tol=1e-06).values()),
    "wcc": lambda: sum(1 for _ in nx.connected_components(graph)),
    "sssp": lambda: len(nx.single_source_shortest_path_length(graph, source)),
    # The paths themselves, as the algorithm library's tg_shortest_ss_no_wt builds them.
    "sssp_paths": lambda: len(nx.single_source_shortest_path(graph, source)),
    "triangles": lambda: sum(nx.triangles(graph).values()) // 3,
}
out = {"load_seconds": load_seconds, "edges": graph.number_of_edges(), "algorithms": {}}
for name, fn in algorithms.items():
    seconds, result = timed(fn)
    out["algorithms"][name] = {"seconds": seconds, "result": result}
print(json.dumps(out))
