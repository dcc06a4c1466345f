/**
 * "In this browser": small instruct models that run in the page (moat-sdk/local: llama.cpp in a worker),
 * downloaded once with the person's agreement and kept in this browser's storage. This module is
 * loaded only when that choice is made: the demo's first load pays nothing for it.
 */
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { cachedModels, deleteCachedModel, downloadModel, type LocalModel, localModel } from 'moat-sdk/local';

export { cachedModels, deleteCachedModel, downloadModel };

/** One model on offer: its file, and its size as its host lists it (shown before anything downloads). */
export interface LocalModelChoice {
  label: string;
  url: string;
  /** Bytes, as the host lists the file. */
  size: number;
}

/**
 * Small instruct models whose chat templates have tool calls (llama.cpp reads them). Their sizes
 * are the files' as Hugging Face lists them; docs/local-model.md says which were tried on the
 * demo's prompts.
 */
export const LOCAL_MODELS: readonly LocalModelChoice[] = [
  {
    label: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    size: 491_400_032,
  },
  {
    label: 'Llama 3.2 1B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    size: 807_694_464,
  },
  {
    label: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    size: 1_117_320_736,
  },
];

/** "491 MB". */
export function formatSize(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

/** The file's name, for the header. */
export function localModelName(url: string): string {
  return LOCAL_MODELS.find((m) => m.url === url)?.label ?? url.split(/[?#]/)[0]?.split('/').pop() ?? url;
}

const models = new Map<string, LocalModel>();

/** One model per file for the page's life: loading it again would cost seconds and memory. */
export function localModelFor(url: string): LocalModel {
  let model = models.get(url);
  if (!model) {
    model = localModel({
      model: url,
      wasmUrl,
      name: localModelName(url),
      contextSize: 8192,
      temperature: 0.2,
      // A bound on each answer: a small model that loses its way stops in seconds, not minutes.
      maxTokens: 1024,
    });
    models.set(url, model);
  }
  return model;
}
