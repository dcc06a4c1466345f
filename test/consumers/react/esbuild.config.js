// As the esbuild app: the tools module is an entry point of its own. React reads NODE_ENV.
export default {
  absWorkingDir: import.meta.dirname,
  entryPoints: ['main.jsx', 'tools.worker.ts'],
  bundle: true,
  format: 'esm',
  minify: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  outdir: 'dist',
};
