#!/usr/bin/env bash
# The package as a user gets it: `npm pack` (which builds first), the tarball installed into an
# empty folder, and there `npx acacia serve` on a fresh data directory and free ports, a short
# CLI journey against it, and `acacia/client` imported by a plain .mjs script. Every step is
# bounded by a timeout; the server is stopped and the folder removed however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill -TERM -- "-$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

TARBALL="$(timeout 300 npm pack --silent --pack-destination "$WORK" | tail -n 1)"
mkdir "$WORK/app"
cd "$WORK/app"
# better-sqlite3 is built from source here (about a minute).
timeout 900 npm install --no-audit --no-fund --silent "$WORK/$TARBALL"

# Its own process group, so stopping it stops npx and the server under it.
setsid npx --no-install acacia serve --port 0 --gateway-port 0 --data-dir "$WORK/app/data" --sim-speed 0 \
  >"$WORK/serve.log" 2>"$WORK/serve.err" &
SERVER_PID=$!

URL=""
for _ in $(seq 1 300); do
  URL="$(grep -o 'Acacia listening: API http://[^,]*' "$WORK/serve.err" | sed 's/.* //' || true)"
  [ -n "$URL" ] && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
  sleep 0.2
done
if [ -z "$URL" ]; then
  echo "acacia serve did not start:"
  cat "$WORK/serve.err"
  exit 1
fi
timeout 30 node -e '
  const url = process.argv[1];
  (async () => {
    for (let i = 0; i < 100; i++) {
      try { if ((await fetch(url + "/healthz")).status === 200) return; } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    console.error("GET /healthz never answered 200"); process.exit(1);
  })();
' "$URL"
echo "serving at $URL"

export ACACIA_URL="$URL"
ACACIA_API_KEY="$(cat "$WORK/app/data/bootstrap-key")"
export ACACIA_API_KEY
export XDG_CONFIG_HOME="$WORK/config"
acacia() { timeout 60 npx --no-install acacia "$@"; }

ID="$(acacia workgroups create --name packaged --provider aws/us-east-1 -o json |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).workgroup_id))')"
[ "$(acacia workgroups list -q)" = "$ID" ] || { echo "workgroups list does not show $ID"; exit 1; }

cat >"$WORK/app/client.mjs" <<'EOF'
import { AcaciaClient, resultOf } from 'acacia/client';

const client = new AcaciaClient({ baseUrl: process.env.ACACIA_URL, apiKey: process.env.ACACIA_API_KEY });
const names = resultOf(await client.workgroups.list()).map((w) => w.name);
if (names.join() !== 'packaged') throw new Error(`acacia/client listed ${names.join()}`);
console.log('acacia/client lists', names.join());
EOF
timeout 30 node "$WORK/app/client.mjs"

[ "$(acacia workgroups delete packaged -o json)" = "\"$ID\"" ] || { echo "workgroups delete failed"; exit 1; }
[ "$(acacia workgroups list -o json)" = "[]" ] || { echo "the workgroup is still listed"; exit 1; }
echo "package: installed, served, driven by its CLI and its client"
