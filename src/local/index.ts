/**
 * `moat-sdk/local`: a model that runs in the page's browser (llama.cpp in WebAssembly, through wllama,
 * in a worker of its own), and the browser storage that keeps its file. Apart from `moat-sdk` so that an
 * app that does not use it does not load it.
 */

export { LocalModelError } from '../errors/local-model-error';
export {
  type LoadOptions,
  type LocalModel,
  type LocalModelInfo,
  type LocalModelOptions,
  localModel,
} from './local-model';
export {
  type CachedModel,
  cachedModels,
  type DownloadOptions,
  type DownloadProgress,
  deleteCachedModel,
  downloadModel,
} from './model-store';
