/**
 * The model settings dialog: offline demo model, a model in this browser (downloaded only when the
 * person asks, with a progress bar), an OpenAI-compatible endpoint (with presets), Anthropic or
 * Gemini; a connection test that says what went wrong in plain words; "Forget keys".
 */
import {
  explainFailure,
  forgetKeys,
  loadSettings,
  type ModelSettings,
  OPENAI_PRESETS,
  type Provider,
  saveSettings,
  testConnection,
  withoutKeys,
} from '../model/settings';
import { h } from './dom';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function setUpSettingsDialog(onSave: (settings: ModelSettings) => void): { open(): void } {
  const dialog = $<HTMLDialogElement>('settings');
  const form = $<HTMLFormElement>('settings-form');
  const provider = $<HTMLSelectElement>('provider');
  const preset = $<HTMLSelectElement>('openai-preset');
  const result = $<HTMLParagraphElement>('connection-result');
  const field = (id: string) => $<HTMLInputElement>(id);
  const local = localFieldset(provider, (text, kind) => say(text, kind));

  preset.append(
    h('option', { value: '' }, 'Choose a preset…'),
    ...OPENAI_PRESETS.map((p, i) => h('option', { value: String(i) }, p.label)),
  );
  preset.addEventListener('change', () => {
    const chosen = OPENAI_PRESETS[Number(preset.value)];
    if (!chosen || preset.value === '') return;
    field('openai-base-url').value = chosen.baseURL;
    field('openai-model').value = chosen.model;
  });

  const showProvider = () => {
    for (const fieldset of form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-provider]'))
      fieldset.hidden = fieldset.dataset.provider !== provider.value;
  };
  provider.addEventListener('change', showProvider);

  const fill = (s: ModelSettings) => {
    provider.value = s.provider;
    field('openai-base-url').value = s.openai.baseURL;
    field('openai-model').value = s.openai.model;
    field('openai-key').value = s.openai.apiKey;
    field('anthropic-model').value = s.anthropic.model;
    field('anthropic-key').value = s.anthropic.apiKey;
    field('gemini-model').value = s.gemini.model;
    field('gemini-key').value = s.gemini.apiKey;
    local.fill(s.local.url);
    preset.value = '';
    showProvider();
  };
  const read = (): ModelSettings => ({
    provider: provider.value as Provider,
    openai: {
      baseURL: field('openai-base-url').value.trim(),
      model: field('openai-model').value.trim(),
      apiKey: field('openai-key').value.trim(),
    },
    anthropic: { model: field('anthropic-model').value.trim(), apiKey: field('anthropic-key').value.trim() },
    gemini: { model: field('gemini-model').value.trim(), apiKey: field('gemini-key').value.trim() },
    local: { url: local.url() },
  });
  const say = (text: string, kind: 'ok' | 'error' | 'info') => {
    result.textContent = text;
    result.dataset.kind = kind;
  };

  $<HTMLButtonElement>('test-connection').addEventListener('click', async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    const settings = read();
    button.disabled = true;
    say('Asking the model…', 'info');
    try {
      const answer = await testConnection(settings);
      say(`Connected. The model said: ${answer.slice(0, 200)}`, 'ok');
    } catch (error) {
      say(explainFailure(error, settings), 'error');
    } finally {
      button.disabled = false;
    }
  });
  $<HTMLButtonElement>('forget-keys').addEventListener('click', () => {
    const next = forgetKeys(loadSettings());
    fill(withoutKeys(read()));
    say('Keys removed from this browser.', 'info');
    onSave(next);
  });
  $<HTMLButtonElement>('cancel-settings').addEventListener('click', () => dialog.close());
  const use = (settings: ModelSettings) => {
    saveSettings(settings);
    onSave(settings);
    dialog.close();
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const settings = read();
    // Nothing downloads unasked: a model in this browser is used once it is here.
    if (settings.provider === 'local' && !(await local.downloaded()))
      return say('Download the model first: nothing is downloaded until you ask.', 'error');
    use(settings);
  });
  local.onDownloaded(() => use(read()));

  return {
    open() {
      fill(loadSettings());
      say('', 'info');
      dialog.showModal();
    },
  };
}

/**
 * "In this browser": the models on offer with their sizes, or any GGUF address; a Download button
 * (the agreement), a progress bar, and the models kept here, each with a Delete button. Built here
 * rather than in index.html's dialog so that its code (moat-sdk/local) loads only when it is chosen.
 */
function localFieldset(provider: HTMLSelectElement, say: (text: string, kind: 'ok' | 'error' | 'info') => void) {
  provider
    .querySelector('option[value="offline"]')
    ?.after(h('option', { value: 'local' }, 'A model in this browser (download once, then offline)'));
  const choice = h('select', { id: 'local-model' }) as HTMLSelectElement;
  const url = h('input', { id: 'local-url', type: 'url', placeholder: 'https://…/model.gguf' }) as HTMLInputElement;
  const download = h('button', { id: 'local-download', type: 'button' }, 'Download and use') as HTMLButtonElement;
  const progress = h('progress', { id: 'local-progress', max: '1', value: '0', hidden: '' }) as HTMLProgressElement;
  const kept = h('ul', { id: 'local-kept', class: 'mcp-servers', 'aria-label': 'Models kept in this browser' });
  const fieldset = h(
    'fieldset',
    { 'data-provider': 'local', hidden: '' },
    h('legend', {}, 'A model in this browser'),
    h(
      'p',
      {},
      'It runs in this page (llama.cpp in a worker): no server, no key. It is downloaded once, only when you ' +
        'press Download, and kept in this browser for the next visit, offline. Small models call tools less ' +
        'reliably than large ones.',
    ),
    h('label', { for: 'local-model' }, 'Model'),
    choice,
    h('label', { for: 'local-url' }, 'GGUF file'),
    url,
    download,
    progress,
    kept,
  );
  provider.closest('form')?.querySelector('fieldset[data-provider="openai"]')?.before(fieldset);
  let code: Promise<typeof import('../model/local-models')> | undefined;
  const load = () => (code ??= import('../model/local-models'));
  let downloaded: () => void = () => {};

  // The choices are filled the first time "In this browser" is shown (not before: its code is
  // loaded then).
  let filled: Promise<void> | undefined;
  const fillChoices = () =>
    (filled ??= load().then(({ LOCAL_MODELS, formatSize }) => {
      choice.append(
        ...LOCAL_MODELS.map((m) => h('option', { value: m.url }, `${m.label} · ${formatSize(m.size)}`)),
        h('option', { value: '' }, 'Another GGUF file (its address below)'),
      );
    }));
  const show = async () => {
    await fillChoices();
    const { LOCAL_MODELS } = await load();
    if (!url.value) url.value = LOCAL_MODELS[0]?.url ?? '';
    choice.value = LOCAL_MODELS.some((m) => m.url === url.value) ? url.value : '';
    await showKept();
  };
  choice.addEventListener('change', () => {
    if (choice.value) url.value = choice.value;
  });

  const showKept = async () => {
    const { cachedModels, deleteCachedModel, formatSize, localModelName } = await load();
    kept.replaceChildren(
      ...(await cachedModels()).map((m) => {
        const remove = h('button', { type: 'button' }, 'Delete');
        remove.addEventListener('click', async () => {
          await deleteCachedModel(m.url);
          say(`${localModelName(m.url)} was deleted from this browser.`, 'info');
          await showKept();
        });
        const state = m.complete ? formatSize(m.size) : `${formatSize(m.size)} of ${formatSize(m.total)}, interrupted`;
        return h('li', {}, `${localModelName(m.url)} · ${state} `, remove);
      }),
    );
  };
  provider.addEventListener('change', () => {
    if (provider.value === 'local') void show();
  });

  download.addEventListener('click', async () => {
    const address = url.value.trim();
    if (!address) return say('Choose a model or give a GGUF file’s address.', 'error');
    const { downloadModel, formatSize } = await load();
    download.disabled = true;
    progress.hidden = false;
    progress.value = 0;
    try {
      await downloadModel(address, {
        onProgress: ({ loaded, total }) => {
          progress.value = total > 0 ? loaded / total : 0;
          say(`Downloading… ${formatSize(loaded)}${total > 0 ? ` of ${formatSize(total)}` : ''}`, 'info');
        },
      });
      say('Downloaded: kept in this browser.', 'ok');
      await showKept();
      downloaded();
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      download.disabled = false;
      progress.hidden = true;
    }
  });

  return {
    url: () => url.value.trim(),
    fill(address: string) {
      url.value = address;
      if (provider.value === 'local') void show();
    },
    async downloaded() {
      const address = url.value.trim();
      if (!address) return false;
      const { cachedModels } = await load();
      const absolute = new URL(address, location.href).href;
      return (await cachedModels()).some((m) => m.url === absolute && m.complete);
    },
    onDownloaded(then: () => void) {
      downloaded = then;
    },
  };
}
