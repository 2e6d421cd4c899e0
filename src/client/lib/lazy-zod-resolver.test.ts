import { describe, expect, it, vi } from 'vitest';
import { z } from '#shared/validation.ts';
import { lazyZodResolver } from './lazy-zod-resolver.ts';

const schema = z.object({ name: z.string().trim().min(3, 'Too short') });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('loads its schema at the first check, not before', async () => {
    const load = vi.fn(() => Promise.resolve(schema));
    const resolver = lazyZodResolver(load);
    expect(load).not.toHaveBeenCalled();

    await resolver({ name: 'ace' }, undefined, options);

    expect(load).toHaveBeenCalledOnce();
  });

  it('answers as zodResolver does: the parsed values, or the messages by field', async () => {
    const resolver = lazyZodResolver(() => Promise.resolve(schema));

    await expect(resolver({ name: '  ace  ' }, undefined, options)).resolves.toEqual({
      values: { name: 'ace' },
      errors: {},
    });
    await expect(resolver({ name: 'ab' }, undefined, options)).resolves.toMatchObject({
      values: {},
      errors: { name: { message: 'Too short' } },
    });
  });
});
