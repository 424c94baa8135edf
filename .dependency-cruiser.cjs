// The import rules of the layered tree (issue #15), checked by `make deps` (`npx depcruise`).
// Layers, bottom up: schemas/ → ingest/lake → ingest/sources, ingest/samples → ingest/events → ingest/pipeline
// → ingest/datasets/<name> → the CLIs ingest/*.ts; api/ sees ingest only through the layers' index.ts files.
// client/ (the typed API client, `filings-lake/client`) stands apart: it imports only itself and openapi-fetch.
// Every rule matches type-only imports too: a type pulled from the wrong layer couples the layers all the same.

/** Our own source folders; a rule's `to` is limited to these so node: built-ins and packages never match. */
const OURS = '^(schemas|ingest|api|client|test)/|^[^/]+\\.ts$';

/** Forbids `from` importing any of our modules outside `allowed` (regex of paths it may import). */
function onlyImports(name, from, allowed, comment) {
  return { name, severity: 'error', comment, from: { path: from }, to: { path: OURS, pathNot: allowed } };
}

/** The public surfaces api/ may import from ingest/. */
const INGEST_BARRELS = '^ingest/(lake|pipeline|events)/index\\.ts$|^ingest/sources/[^/]+/index\\.ts$|^ingest/samples/filing-archive/index\\.ts$';

module.exports = {
  forbidden: [
    onlyImports(
      'schemas-import-only-schemas',
      '^schemas/',
      '^schemas/',
      'schemas/ is the contract both sides import: it may import only schemas/. Move the needed type or constant into schemas/.',
    ),
    onlyImports(
      'lake-imports-only-schemas-and-lake',
      '^ingest/lake/',
      '^(schemas|ingest/lake)/',
      'ingest/lake is storage: it may import only schemas/ and ingest/lake. Pass what it needs in as a parameter, or move it down.',
    ),
    onlyImports(
      'sources-import-only-lower-layers',
      '^ingest/sources/',
      '^(schemas|ingest/lake|ingest/sources)/',
      'ingest/sources may import schemas/, ingest/lake and ingest/sources only (the ingest context types are in ' +
        'ingest/sources/common/context.ts). ' +
        'Move dataset-specific code into the dataset folder, or shared code down into ingest/sources.',
    ),
    onlyImports(
      'samples-import-only-lower-layers',
      '^ingest/samples/',
      '^(schemas|ingest/lake|ingest/sources|ingest/samples)/',
      'ingest/samples follows the rules of ingest/sources: schemas/, ingest/lake, ingest/sources and ingest/samples ' +
        'only. A dataset-specific sample writer belongs in that dataset folder.',
    ),
    onlyImports(
      'events-import-only-lower-layers',
      '^ingest/events/',
      '^(schemas|ingest/lake|ingest/sources|ingest/events)/',
      'ingest/events (diff stage, handlers, writer) may import schemas/, ingest/lake, ingest/sources and ingest/events only.',
    ),
    onlyImports(
      'pipeline-imports-only-lower-layers',
      '^ingest/pipeline/',
      '^(schemas|ingest/lake|ingest/sources|ingest/events|ingest/pipeline)/',
      'ingest/pipeline may import schemas/, ingest/lake, ingest/sources, ingest/events and ingest/pipeline only; ' +
        'datasets are found at run time by the registry, never imported.',
    ),
    onlyImports(
      'datasets-import-only-ingest-layers',
      '^ingest/datasets/',
      '^(schemas|ingest/(lake|sources|samples|events|pipeline|datasets))/',
      'A dataset may import schemas/ and the ingest layers (lake, sources, samples, events, pipeline), not the CLIs or api/.',
    ),
    {
      name: 'no-dataset-imports-another-dataset',
      severity: 'error',
      comment:
        'A dataset never imports another dataset. Move the shared code down into ingest/sources (or schemas/ for table ' +
        'definitions); declare an ordering need with `dependsOn` instead.',
      from: { path: '^ingest/datasets/([^/]+)/' },
      to: { path: '^ingest/datasets/', pathNot: '^ingest/datasets/$1/' },
    },
    onlyImports(
      'ingest-clis-import-only-ingest',
      '^ingest/[^/]+\\.ts$',
      '^(schemas|ingest)/',
      'The ingest CLIs may import schemas/ and any ingest layer, never api/ or test/.',
    ),
    {
      name: 'ingest-and-schemas-never-import-api',
      severity: 'error',
      comment: 'Nothing under ingest/ or schemas/ imports api/: the API sits on top. Move the shared piece down into schemas/ or ingest/.',
      from: { path: '^(ingest|schemas)/' },
      to: { path: '^api/' },
    },
    onlyImports(
      'api-imports-ingest-only-through-barrels',
      '^api/',
      `^(schemas|api)/|${INGEST_BARRELS}`,
      "api/ imports ingest only through a layer's index.ts (ingest/lake, ingest/pipeline, ingest/events, ingest/sources/<publisher>, " +
        'ingest/samples/filing-archive for the demo). ' +
        'Export what you need from that index.ts, or move the piece into schemas/.',
    ),
    {
      name: 'client-imports-only-client-and-openapi-fetch',
      severity: 'error',
      comment:
        'client/ is shipped to API users (filings-lake/client): it may import its own files (the generated types among them) ' +
        'and openapi-fetch only; no server code, no Node built-ins. A type it needs comes from client/generated (npm run client:generate).',
      from: { path: '^client/' },
      to: { pathNot: '^client/|(^|/)node_modules/openapi-fetch/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular imports make load order matter and blur the layers. Move the shared piece into a module both import.',
      from: {},
      // A cycle closed only by an `import type` is erased at compile time and cannot change load order: see the next rule.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-through-types',
      severity: 'info',
      comment: 'A cycle closed by an `import type`: harmless at run time, but moving the shared type into its own module untangles it.',
      from: {},
      to: { circular: true, via: { dependencyTypes: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'This import does not resolve: a misspelt path, or a package missing from package.json. (An unresolved import would escape every rule above.)',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data)/' },
    // Type-only imports count: see the header.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
