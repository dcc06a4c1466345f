/** Count the frames the page draws from now on; the function returned stops counting and says how many. */
export function countFrames(): () => number {
  let frames = 0;
  let on = true;
  const tick = () => {
    frames++;
    if (on) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return () => {
    on = false;
    return frames;
  };
}
