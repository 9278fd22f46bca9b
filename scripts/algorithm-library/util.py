"""The connection module the algorithm library's tests import (`import util`), for an Acacia data plane.

The library's own util.py builds pyTigerGraph's GDS featurizer, whose runAlgorithm() installs
each query from GitHub first. Here the queries are installed beforehand, unchanged, through
GSQL; runAlgorithm() only prepares the parameters as the featurizer does (a vertex given as
{"id", "type"} under v_start or source becomes two parameters) and runs the installed query
with runInstalledQuery(usePost=True), as the featurizer does. ACACIA_ALGO_HOST and
ACACIA_ALGO_PORT name the endpoint (REST++ and GSQL on one port).
"""

import os

import pyTigerGraph as tg

# The featurizer's own default, in seconds.
TIMEOUT = 2147480


def _connection(graph_name):
    port = os.environ["ACACIA_ALGO_PORT"]
    return tg.TigerGraphConnection(
        host=os.environ.get("ACACIA_ALGO_HOST", "http://127.0.0.1"),
        graphname=graph_name,
        restppPort=port,
        gsPort=port,
    )


class Featurizer:
    def __init__(self, conn):
        self.conn = conn

    def runAlgorithm(self, query_name, params=None, timeout=TIMEOUT):
        params = dict(params or {})
        for key in ("v_start", "source"):
            vertex = params.get(key)
            if isinstance(vertex, dict):
                params[key] = vertex["id"]
                params[key + ".type"] = vertex["type"]
        return self.conn.runInstalledQuery(query_name, params, timeout=timeout, usePost=True)


def get_featurizer(graph_name="graph_algorithms_testing"):
    return Featurizer(_connection(graph_name))


def get_installed_queries(conn):
    return [k.split("/")[-1].strip() for k in conn.getInstalledQueries()]
