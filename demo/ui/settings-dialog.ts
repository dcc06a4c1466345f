/**
 * The model settings dialog: offline demo model, an OpenAI-compatible endpoint (with presets),
 * Anthropic or Gemini; a connection test that says what went wrong in plain words; "Forget keys".
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
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const settings = read();
    saveSettings(settings);
    onSave(settings);
    dialog.close();
  });

  return {
    open() {
      fill(loadSettings());
      say('', 'info');
      dialog.showModal();
    },
  };
}
