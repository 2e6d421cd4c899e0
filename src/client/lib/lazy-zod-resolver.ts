import type { FieldValues, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from '#shared/validation.ts';

/**
 * zodResolver for a schema loaded when a form is first checked rather than when it is shown: the
 * login and registration forms are on the first page a visitor sees, and that page draws sooner
 * without zod and the form's contract. The form should start `load` when it is first focused too
 * (a module is fetched and run once, however often it is imported), so that the first check does
 * not have to wait for the download.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  load: () => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, unknown, Output> {
  return async (values, context, options) => zodResolver(await load())(values, context, options);
}
