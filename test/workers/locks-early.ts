/// <reference lib="webworker" />
// Evaluated BEFORE moat-sdk/worker: it keeps the originals of postMessage and close, and spies on the
// message listeners added after it. What moat-sdk/worker cannot take back from it (documented).
export const earlyPost: (message: unknown) => void = self.postMessage.bind(self);
export let earlySeen = 0;
const originalAdd = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (
  this: EventTarget,
  type: string,
  listener: EventListenerOrEventListenerObject | null,
  options?: boolean | AddEventListenerOptions,
) {
  const spy = (event: Event) => {
    if (type === 'message') earlySeen++;
    if (typeof listener === 'function') listener.call(this, event);
    else listener?.handleEvent(event);
  };
  originalAdd.call(this, type, spy, options);
};
