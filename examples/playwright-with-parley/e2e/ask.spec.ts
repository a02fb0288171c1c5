import { turn } from '@parley/reference-server';
import { expect, test } from './fixtures';

test('shows the streamed answer', async ({ page, parley, app }) => {
  await parley.script([turn.text('It is sunny in Paris today.')]);
  await page.goto(app.url);
  await page.getByLabel('Question').fill('Weather in Paris?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByTestId('answer')).toHaveText('It is sunny in Paris today.');
  // What the app sent, from the test's journal.
  const [send] = await parley.journal({ method: 'POST', path: '/v1/messages/*/stream' });
  expect(send?.body).toEqual({ content: 'Weather in Paris?' });
});

test('tells the user when the service is unavailable', async ({ page, parley, app }) => {
  await parley.faults.next({ status: 503, match: { method: 'POST', path: '/v1/messages/*/stream' } });
  await page.goto(app.url);
  await page.getByLabel('Question').fill('Weather in Paris?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByTestId('error')).toHaveText('Parley answered 503');
});
