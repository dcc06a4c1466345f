/// <reference lib="webworker" />
// The worker's postMessage, taken before moat-sdk/worker is evaluated (which locks it): for a bench
// script that loads moat-sdk/worker without serving tools and still reports to the page.
export const post: (message: unknown) => void = self.postMessage.bind(self);
