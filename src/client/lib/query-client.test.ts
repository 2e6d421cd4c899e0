import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, readAgain } from './query-client.ts';

/** A shown query whose reads the test answers, in any order. */
function heldQuery() {
  const queryClient = createQueryClient();
  const answers: Array<(value: string) => void> = [];
  const observer = new QueryObserver(queryClient, {
    queryKey: ['list'],
    queryFn: () => new Promise<string>((resolve) => answers.push(resolve)),
  });
  const stop = observer.subscribe(() => {});
  return { queryClient, answers, stop };
}

describe('readAgain', () => {
  it('starts a first read under way again: its answer may be older than the change', async () => {
    const { queryClient, answers, stop } = heldQuery();
    expect(answers).toHaveLength(1);

    const done = readAgain(queryClient, ['list']);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]?.('after the change');
    answers[0]?.('before the change');
    await done;

    expect(queryClient.getQueryData(['list'])).toBe('after the change');
    stop();
  });

  it('reads a query that has data again, as invalidateQueries does', async () => {
    const { queryClient, answers, stop } = heldQuery();
    answers[0]?.('first');
    await vi.waitFor(() => expect(queryClient.getQueryData(['list'])).toBe('first'));

    const done = readAgain(queryClient, ['list']);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]?.('second');
    await done;

    expect(queryClient.getQueryData(['list'])).toBe('second');
    stop();
  });
});
