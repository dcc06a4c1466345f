/**
 * `npm test` on a loaded machine: two processes each keep a core busy (a tight loop, as a build
 * or a second test run beside this one would) for as long as the tests run. A test that passes
 * only on an idle machine (a time limit that the load pushes past, a frame taken for dead while it
 * was busy) fails here. CI runs this instead of a bare `npm test`.
 * `node --import tsx scripts/test-loaded.ts [busy loops, default 2]`; exits with `npm test`'s code.
 */
import { type ChildProcess, spawn } from 'node:child_process';

const loops = Number(process.argv[2] ?? 2);
if (!Number.isInteger(loops) || loops < 0)
  throw new TypeError(`Expected a number of busy loops, got ${process.argv[2]}`);

const busy: ChildProcess[] = Array.from({ length: loops }, () =>
  // A loop that stops by itself after two hours, should this script be killed before it ends them.
  spawn(process.execPath, ['-e', 'const end = Date.now() + 7.2e6; while (Date.now() < end) {}'], { stdio: 'ignore' }),
);
const stopLoops = () => {
  for (const loop of busy) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
let test: ChildProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopLoops();
    test?.kill(signal);
    process.exit(130);
  });

console.log(`test-loaded: npm test beside ${loops} busy loop${loops === 1 ? '' : 's'}`);
const started = Date.now();
test = spawn('npm', ['test'], { stdio: 'inherit' });
test.on('exit', (code, signal) => {
  stopLoops();
  console.log(
    `test-loaded: npm test ${code === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s under load`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
