# The README's commands. Every target installs what it needs first, so each works from a fresh clone.
PORT ?= 8080
export PORT

.PHONY: install test demo demo-data bench typecheck serve clean lint deps deadcode check bundles

# `npm install`, not `npm ci`: the lock file records the DuckDB binding for this platform only (its optional
# per-platform packages are prereleases npm does not list for other platforms), which `npm ci` rejects.
node_modules/.installed: package.json package-lock.json
	@# Info-ZIP unzip reads the Deflate64 members some of the regulator's zips carry (yauzl cannot).
	@command -v unzip >/dev/null || (apt-get update -qq && apt-get install -y -qq unzip) || echo "warning: install unzip for Deflate64 zip members"
	@# PostgreSQL's server binaries (initdb, pg_ctl): the state-store suite also runs against a throw-away local cluster
	@# (test/support/postgres.ts), and skips that half loudly without them.
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq postgresql) \
		|| echo "warning: install postgresql (its server binaries) to run the state-store suite on PostgreSQL"
	npm install --no-audit --no-fund
	@touch $@

install: node_modules/.installed

typecheck: install
	npx tsc --noEmit

## make test: install, then typecheck, the quality gates and the whole suite (vitest, real HTTP on ephemeral ports),
## printing the wall time of everything after the install (the target is under 2 minutes on 2 cores). The typecheck
## and the gates run two at a time: tsc is single-threaded, so the gates use the other core meanwhile.
test: install
	@start=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck lint deps deadcode && npx vitest run || status=$$?; \
	echo "make test: typecheck + gates + suite took $$(( $$(date +%s) - start )) s of wall time"; \
	exit $$status

## make check: the quality gates (configured in biome.json, .dependency-cruiser.cjs, knip.json); each fails on any finding.
check: lint deps deadcode

# Format and lint check, no writes (`npx biome check --write` applies the formatter and the safe fixes).
lint: install
	npm run -s lint

# The layer import rules and no import cycles.
deps: install
	npm run -s deps

# Unused files, exports and dependencies.
deadcode: install
	npm run -s deadcode

## make demo: install, check, write sample data in the regulator's formats, ingest it, write a sample filing archive,
## create a key, serve in the foreground (Ctrl-C stops it; `DEMO=on make serve` restarts it without rebuilding).
## DEMO=on: the server also serves the sample archive and the webhook receiver (api/demo/demo-mode.ts).
demo: export DEMO = on
demo: install typecheck demo-data serve

demo-data: install
	npx tsx api/demo.ts

serve: install
	node ingest/cli-launch.cjs api

## make bench [BENCH=area]: figures only (latency p50/p99, rows/s, peak RSS, the sql CLI's cold start).
## BENCH=peer installs PostgreSQL (apt-get) when missing and runs a throw-away cluster (test/bench/postgres-cluster.ts).
bench: install bundles
	npx tsx test/bench/run.ts $(BENCH)

# The prebuilt `npm run sql` and `npm run ingest` (dist/sql.cjs, dist/ingest.cjs, gitignored): built now if missing
# or stale, else on each one's first use.
bundles: install
	node ingest/cli-bundle.cjs

clean:
	rm -rf dist data/lake data/raw data/samples data/.work data/filings data/demo data/state.duckdb* data/admin.sock
