import { expect, test } from './fixtures';

test('the page is cross-origin isolated in the isolated project only, as its server says', async ({
  page,
}, testInfo) => {
  await page.goto('./');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(testInfo.project.name === 'isolated');
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe(
    testInfo.project.name === 'isolated' ? 'function' : 'undefined',
  );
});
