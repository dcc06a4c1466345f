import type { Page } from '@playwright/test';
import { ask, cards, expect, idle, lastAnswer, test } from './fixtures';

/** Whether any record of the demo's notes database (read raw, as the browser keeps it) holds `text`. */
const notesHold = (page: Page, text: string) =>
  page.evaluate(async (text) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('moat-demo-notes');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names);
    const all = await Promise.all(
      names.map(
        (name) =>
          new Promise<unknown[]>((resolve) => {
            const request = tx.objectStore(name).getAll();
            request.onsuccess = () => resolve(request.result);
          }),
      ),
    );
    db.close();
    return JSON.stringify(all).includes(text);
  }, text);

test.beforeEach(async ({ page, expectConsoleErrors: _ }) => {
  await page.goto('./');
});

test('a note remembered survives a reload; it is deleted only after Approve, which also survives a reload', async ({
  page,
}) => {
  await ask(page, 'Remember that my favourite tea is sencha');
  await expect(cards(page, 'remember')).toHaveAttribute('data-status', 'done');
  await expect(lastAnswer(page)).toContainText("Saved the note 'my favourite tea'.");
  await idle(page);

  // A reload restores the open thread, and the note is still there for a new question.
  await page.reload();
  await expect(page.getByTestId('user').first()).toHaveText('Remember that my favourite tea is sencha');
  await expect(cards(page, 'remember')).toHaveAttribute('data-status', 'done');
  await ask(page, 'What do you remember about tea?');
  await expect(lastAnswer(page)).toContainText('my favourite tea: my favourite tea is sencha');
  await idle(page);

  // Delete: the card waits for a person.
  await ask(page, 'Delete the note my favourite tea');
  const card = cards(page, 'delete_note');
  await expect(card).toHaveAttribute('data-status', 'approval');
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
  await idle(page);

  // Nothing is deleted yet, and the question survives a reload.
  await page.reload();
  await expect(cards(page, 'delete_note')).toHaveAttribute('data-status', 'approval');
  expect(await notesHold(page, 'sencha')).toBe(true);
  await cards(page, 'delete_note').getByRole('button', { name: 'Approve' }).click();
  await expect(cards(page, 'delete_note')).toHaveAttribute('data-status', 'done');
  await expect(lastAnswer(page)).toContainText("Deleted the note 'my favourite tea'.");
  await idle(page);
  await ask(page, 'What do you remember about tea?');
  await expect(lastAnswer(page)).toContainText('I have no note about "tea"');
  expect(await notesHold(page, 'sencha')).toBe(false);
});

test('Deny leaves the note alone and tells the model why', async ({ page }) => {
  await ask(page, 'Remember that the door code is 4711');
  await expect(lastAnswer(page)).toContainText("Saved the note 'the door code'.");
  await idle(page);
  await ask(page, 'Forget the door code');
  await cards(page, 'delete_note').getByRole('button', { name: 'Deny' }).click();
  await expect(cards(page, 'delete_note')).toHaveAttribute('data-status', 'error');
  await expect(cards(page, 'delete_note').getByTestId('tool-result')).toContainText('the user denied it');
  await expect(lastAnswer(page)).toContainText('I did not delete it');
  await idle(page);
  await ask(page, 'List my notes');
  await expect(lastAnswer(page)).toContainText('the door code');
});
