/**
 * The layers of src/, kept by a tool (npm test runs `npm run layers`): what may import what.
 * docs/architecture.md describes them; a rule broken here fails the test run with its name.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-stands-alone',
      comment: 'src/core is the contract: it imports nothing outside itself but the shape of the shipped catalogues.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core|locales)/' },
    },
    {
      name: 'locales-are-leaves',
      comment: 'The catalogues are words: they import nothing but each other.',
      severity: 'error',
      from: { path: '^src/locales/' },
      to: { path: '^src/', pathNot: '^src/locales/' },
    },
    {
      name: 'kernel-imports-core-only',
      comment: 'The server kernel builds on the contract alone: no feature, route, adapter or node code.',
      severity: 'error',
      from: { path: '^src/server/kernel/' },
      to: { path: '^src/', pathNot: '^src/(server/kernel|core|locales)/' },
    },
    {
      name: 'built-in-plugins-use-the-kernel',
      comment:
        "A built-in plugin (src/server/features/X) imports its own folder, the kernel, the completion step (src/server/sign-in), core, the catalogues, provider modules (public entries), the adapters' list of factor methods, and packages: never the shared routes, app/, latchkey.ts, node code or another plugin's files.",
      severity: 'error',
      from: { path: '^src/server/features/([^/]+)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/server/features/$1/', '^src/server/kernel/', '^src/server/sign-in/', '^src/core/', '^src/locales/', '^src/providers/', '^src/adapters/factors\\.ts$'],
      },
    },
    {
      name: 'plugins-use-public-entries',
      comment:
        "A plugin in src/plugins/X is written as a third party would write it: of latchkey it imports only the public entries (latchkey/server, latchkey/client), never the kernel, core or another plugin's files.",
      severity: 'error',
      from: { path: '^src/plugins/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/plugins/$1/', '^src/server/index\\.ts$', '^src/client/index\\.ts$'] },
    },
    {
      name: 'shared-server-names-no-feature',
      comment:
        'The shared routes, the completion step and the app helpers name no feature: only the instance (latchkey.ts), the feature list (features/index.ts) and the public entry (index.ts) import feature files.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: '^src/server/(features/|latchkey\\.ts$|index\\.ts$)' },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'server-is-web-only',
      comment: 'Node request shapes live in src/node (latchkey/node), never in src/server.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/node/' },
    },
    {
      name: 'server-imports-no-node-http',
      comment: "src/server is Web-only in its types too: node's request and response come from src/node.",
      severity: 'error',
      from: { path: '^src/server/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|net)$' },
    },
    {
      name: 'client-imports-no-server',
      comment: 'The browser SDK, its elements and the worker never import server, adapter or node code.',
      severity: 'error',
      from: { path: '^src/(client|components|bindings|jsx|locales)/' },
      to: { path: '^src/(server|adapters|node|adapter-test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)node_modules/' },
  },
}
