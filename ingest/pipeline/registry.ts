import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverModules, loadModules, type ModuleLoader } from './discover.ts';
import type { DatasetIngester } from './contract.ts';

type DatasetExport = DatasetIngester | DatasetIngester[];

let cache: Promise<DatasetIngester[]> | null = null;
let provided: ModuleLoader<DatasetExport>[] | null = null;

/**
 * The bundled `npm run ingest` (ingest/cli-bundle.cjs) hands over its dataset modules here: a CommonJS bundle has
 * no `import.meta.url` to find ingest/datasets/ by, nor a way to import a computed path, so its build lists the
 * folders by discovery's rule and passes one loader per dataset.ts (an `import()` of a literal path, bundled and
 * evaluated only when called). `[folder, loader]` pairs, in folder order; a module that throws while it loads is
 * skipped and reported as discovery skips it. Without this call (tsx, the tests) the folders are discovered at run time.
 * @public (called by the generated bundle entry only)
 */
export function provideDatasetModules(modules: [dir: string, load: () => Promise<{ default?: DatasetExport }>][]): void {
  provided = modules.map(([dir, load]) => ({ dir, file: `ingest/datasets/${dir}/dataset.ts`, load }));
  cache = null;
}

/**
 * Every dataset is a folder `ingest/datasets/<name>/` with a `dataset.ts`: discovered here, so adding a dataset
 * never touches a shared registry file. Listed in folder order; `dependencyOrder` gives the order to run them in.
 * A duplicate name, or a `dependsOn` naming an unknown dataset or closing a cycle, fails the load.
 */
export function loadIngesters(): Promise<DatasetIngester[]> {
  cache ??= (async () => {
    const out: DatasetIngester[] = [];
    // Resolved here, not at load: in the bundle `import.meta` is empty, and the modules were provided.
    const modules = provided
      ? await loadModules(provided)
      : await discoverModules<DatasetExport>(resolve(dirname(fileURLToPath(import.meta.url)), '../datasets'), 'dataset.ts');
    for (const { value } of modules) out.push(...(Array.isArray(value) ? value : [value]));
    const names = new Set<string>();
    for (const d of out) {
      if (names.has(d.name)) throw new Error(`two ingesters are named ${d.name}`);
      names.add(d.name);
    }
    dependencyOrder(out);
    return out;
  })();
  return cache;
}

export async function findIngester(name: string): Promise<DatasetIngester | undefined> {
  return (await loadIngesters()).find((d) => d.name === name);
}

/**
 * The order to run datasets in: every dataset after the datasets it depends on (whose lake tables it reads). Of
 * the datasets free to run, the one more datasets depend on (directly or through others) goes first, so the
 * shared directories (entities, then the filing index) run early and everything else follows by name; the order
 * is the same on every machine. Throws on a dependency that names no dataset in `ingesters`, or on a cycle. The
 * demo and the nightly schedule both run in this order.
 */
export function dependencyOrder<T extends Pick<DatasetIngester, 'name' | 'dependsOn'>>(ingesters: readonly T[]): T[] {
  const byName = new Map(ingesters.map((d) => [d.name, d]));
  for (const d of ingesters) {
    for (const dep of d.dependsOn) {
      if (!byName.has(dep)) throw new Error(`dataset ${d.name} depends on '${dep}', which is not a dataset`);
      if (dep === d.name) throw new Error(`dataset ${d.name} depends on itself`);
    }
  }
  // Kahn's algorithm over the datasets still waiting, each with the dependencies it still waits for.
  const waitingOn = new Map(ingesters.map((d) => [d.name, new Set(d.dependsOn)]));
  const weight = dependentCounts(ingesters);
  const out: T[] = [];
  while (waitingOn.size) {
    const ready = [...waitingOn].filter(([, deps]) => deps.size === 0).map(([name]) => name);
    if (!ready.length) {
      throw new Error(`datasets depend on each other in a cycle: ${cycleIn(waitingOn).join(' → ')}`);
    }
    ready.sort((a, b) => weight.get(b)! - weight.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
    const next = ready[0];
    out.push(byName.get(next)!);
    waitingOn.delete(next);
    for (const deps of waitingOn.values()) deps.delete(next);
  }
  return out;
}

/** How many datasets depend on each one, directly or through others (cycles are reported by the caller). */
function dependentCounts(ingesters: readonly Pick<DatasetIngester, 'name' | 'dependsOn'>[]): Map<string, number> {
  const direct = new Map<string, string[]>(ingesters.map((d) => [d.name, []]));
  for (const d of ingesters) for (const dep of d.dependsOn) direct.get(dep)?.push(d.name);
  const counts = new Map<string, number>();
  for (const d of ingesters) {
    const seen = new Set<string>();
    const stack = [...direct.get(d.name)!];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...direct.get(n)!);
    }
    seen.delete(d.name);
    counts.set(d.name, seen.size);
  }
  return counts;
}

/** One cycle among datasets that cannot run, for the error message (`a → b → a`). */
function cycleIn(waitingOn: Map<string, Set<string>>): string[] {
  const path: string[] = [];
  let at = [...waitingOn.keys()].sort()[0];
  while (!path.includes(at)) {
    path.push(at);
    at = [...waitingOn.get(at)!].sort()[0];
  }
  return [...path.slice(path.indexOf(at)), at];
}
