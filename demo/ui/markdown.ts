/**
 * Model text as Markdown, made safe: model output is hostile input (a prompt injection can make
 * it write anything). `marked` parses; DOMPurify keeps only text formatting, links with http(s)
 * or mailto addresses, and nothing that loads or runs: no images (an image address can carry
 * the conversation away), no scripts, no event handlers, no `javascript:` links.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

const CONFIG = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'span',
    'input',
  ],
  ALLOWED_ATTR: ['href', 'title', 'align', 'start', 'type', 'checked', 'disabled'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  RETURN_DOM_FRAGMENT: true as const,
};

/** Render Markdown into `target`, replacing what it held. */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const html = marked.parse(text) as string;
  const fragment = purify.sanitize(html, CONFIG);
  // Task-list checkboxes are the only inputs kept, and they never take input.
  for (const input of fragment.querySelectorAll('input')) {
    if (input.type !== 'checkbox') input.remove();
    else {
      input.disabled = true;
      input.setAttribute('aria-label', input.checked ? 'done' : 'not done');
    }
  }
  target.replaceChildren(fragment);
}
