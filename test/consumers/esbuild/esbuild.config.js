// esbuild leaves `new URL('…', import.meta.url)` as it is: the tools module is an entry point of
// its own, and the page names its output (dist/tools.worker.js, beside dist/main.js).
export default {
  absWorkingDir: import.meta.dirname,
  entryPoints: ['main.ts', 'tools.worker.ts'],
  bundle: true,
  format: 'esm',
  minify: true,
  outdir: 'dist',
};
