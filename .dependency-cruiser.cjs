/**
 * The layers of the code, linted (`npm run lint`). A module imports only from its own layer or
 * the layers below it: nothing points up. The page's pure parts (errors, json, messages,
 * providers, stream, output) never reach the pool or the store; what runs inside a tool worker
 * (`worker/`) never imports the page's pool, invoker, agent or chat, save the wire protocol
 * (`protocol.ts` files: types and constants, which import no code themselves).
 */
const LAYERS = [
  ['src/errors', 'src/json'],
  ['src/messages'],
  ['src/providers'],
  ['src/stream', 'src/output'],
  ['src/models', 'src/store'],
  ['src/local', 'src/frame', 'worker'],
  ['src/pool'],
  ['src/invoker', 'src/sandbox'],
  ['src/agent'],
  ['src/mcp', 'src/chat'],
  ['src/react', 'src/server'],
  ['src/index.ts'],
];

const rank = new Map(LAYERS.flatMap((layer, i) => layer.map((dir) => [dir, i])));
const asPattern = (dir) => dir.replace(/[.]/g, '\\.');
/** The wire protocol may be imported from below: it is a contract, not code (see its rule). */
const PROTOCOL = '^src/pool/protocol\\.ts$';

const upward = [...rank].map(([dir, i]) => {
  const above = [...rank].filter(([, j]) => j > i).map(([d]) => asPattern(d));
  return {
    name: `no-upward-from-${dir.replace(/[/.]/g, '-')}`,
    comment: `${dir} is below ${above.join(', ')}: it may not import them (layers in .dependency-cruiser.cjs)`,
    severity: 'error',
    from: { path: `^${asPattern(dir)}(/|$)`, pathNot: '\\.test\\.ts$' },
    to: { path: `^(${above.join('|')})(/|$)`, pathNot: PROTOCOL },
  };
});

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'react-only-in-its-subpath',
      comment: 'React is an optional peer: only moat-sdk/react (src/react) may reach it or the code that imports it',
      severity: 'error',
      from: { path: '^(src|worker)/', pathNot: '^src/react/' },
      to: { path: '^src/react/|(^|/)node_modules/react(-dom)?/' },
    },
    {
      name: 'protocol-is-a-contract',
      comment:
        'A wire protocol file (protocol.ts) holds types and constants: it imports no code, so importing it from below brings none',
      severity: 'error',
      from: { path: PROTOCOL },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: the modules cannot be read (or loaded) one after another',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test\\.ts$|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
