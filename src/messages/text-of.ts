import type { Content } from './types';

/**
 * The text of a message's content: the string itself, or its text parts joined by newlines
 * (images and files left out).
 *
 * @example textOf([{ type: 'text', text: 'What is this?' }, { type: 'image', data: url }]) // 'What is this?'
 */
export function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  let text = '';
  let first = true;
  for (const part of content) {
    if (part.type !== 'text') continue;
    text += first ? part.text : `\n${part.text}`;
    first = false;
  }
  return text;
}
