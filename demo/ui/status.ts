/**
 * Live status: the pool's workers (idle, busy, restarting) and the page's frame rate, drawn by
 * the page itself; it stays smooth while a tool burns a core in a worker.
 */
import type { WorkerPool } from 'moat-sdk';
import { h } from './dom';

export function showStatus(pool: WorkerPool, size: number, workers: HTMLElement, fps: HTMLElement): void {
  const dots = Array.from({ length: size }, (_, i) =>
    h('span', { class: 'worker-dot', 'data-state': 'idle', title: `worker ${i + 1}` }),
  );
  const summary = h('span', { class: 'worker-summary', 'data-testid': 'workers' });
  workers.replaceChildren(h('span', { class: 'status-label' }, 'Workers'), ...dots, summary);
  let restarted = 0;
  let restartingUntil = 0;
  const draw = () => {
    const stats = pool.stats;
    if (stats.restarted > restarted) {
      restarted = stats.restarted;
      restartingUntil = performance.now() + 1_000;
    }
    const restarting = performance.now() < restartingUntil ? 1 : 0;
    dots.forEach((dot, i) => {
      const state =
        i < stats.busy ? 'busy' : i >= size - restarting ? 'restarting' : i < stats.workers ? 'idle' : 'off';
      dot.dataset.state = state;
      dot.title = `worker ${i + 1}: ${state === 'off' ? 'not started' : state}`;
    });
    const parts = [`${stats.busy} busy`, `${Math.max(0, stats.workers - stats.busy)} idle`];
    if (stats.queued) parts.push(`${stats.queued} queued`);
    if (restarted) parts.push(`${restarted} restarted`);
    summary.textContent = parts.join(' · ');
  };
  setInterval(draw, 250);
  draw();

  // Frames per second over the last second, and the longest gap between two frames in it.
  let frames: number[] = [];
  let last = 0;
  const tick = (now: number) => {
    frames.push(now);
    frames = frames.filter((t) => now - t <= 1_000);
    if (now - last > 250) {
      last = now;
      let gap = 0;
      for (let i = 1; i < frames.length; i++) gap = Math.max(gap, (frames[i] as number) - (frames[i - 1] as number));
      fps.textContent = `${frames.length} fps`;
      fps.title = `longest frame in the last second: ${Math.round(gap)} ms`;
      fps.dataset.smooth = String(gap < 100);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
