import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FlaskConical, Lock } from 'lucide-react';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { formatCents, type Cents } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';

/**
 * The card details a real form would ask for. Only the number reaches the sandbox, which decides
 * by it; expiry and CVC are checked for shape so the form behaves like the real one.
 */
const sandboxCardSchema = z.object({
  cardNumber: z
    .string()
    .trim()
    .min(1, 'Please enter a card number')
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Please enter a valid card number')),
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2]) ?\/ ?\d{2}$/, 'Please enter the expiry date as MM/YY'),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, 'Please enter the 3 or 4 digit CVC'),
});
type SandboxCardValues = z.input<typeof sandboxCardSchema>;
type SandboxCardOutput = z.output<typeof sandboxCardSchema>;

export interface SandboxCardFormProps {
  amountCents: Cents;
  pending: boolean;
  onPay: (cardNumber: string) => void;
  onCancel: () => void;
}

/** The TEST MODE card form, shown when no Stripe key is configured (docs/payments.md). */
export function SandboxCardForm({ amountCents, pending, onPay, onCancel }: SandboxCardFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SandboxCardValues, unknown, SandboxCardOutput>({
    resolver: zodResolver(sandboxCardSchema),
    defaultValues: { cardNumber: '', expiry: '', cvc: '' },
  });

  const onSubmit = handleSubmit(({ cardNumber }) => onPay(cardNumber));

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <section
        aria-label="Test cards"
        className="space-y-2 rounded-lg border border-amber-400/40 bg-amber-400/5 p-4 text-sm text-amber-100"
      >
        <p className="flex items-center gap-2 font-display text-xs font-bold tracking-wider text-amber-300">
          <FlaskConical aria-hidden="true" className="size-4" />
          TEST CARDS — NO REAL MONEY
        </p>
        <ul className="space-y-1">
          <li>
            <span className="font-mono whitespace-nowrap">{SANDBOX_TEST_CARDS.success}</span>{' '}
            succeeds
          </li>
          <li>
            <span className="font-mono whitespace-nowrap">{SANDBOX_TEST_CARDS.declined}</span> is
            declined
          </li>
        </ul>
        <p className="text-amber-100/80">Use any future expiry date and any 3-digit CVC.</p>
      </section>
      <Field label="Card Number" error={errors.cardNumber?.message}>
        {(control) => (
          <Input
            {...control}
            type="text"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder={SANDBOX_TEST_CARDS.success}
            className="font-mono"
            {...register('cardNumber')}
          />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field label="Expiry (MM/YY)" error={errors.expiry?.message}>
          {(control) => (
            <Input
              {...control}
              type="text"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              {...register('expiry')}
            />
          )}
        </Field>
        <Field label="CVC" error={errors.cvc?.message}>
          {(control) => (
            <Input
              {...control}
              type="text"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              {...register('cvc')}
            />
          )}
        </Field>
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          CANCEL
        </Button>
        <Button type="submit" disabled={pending}>
          <Lock aria-hidden="true" />
          {pending ? 'PROCESSING...' : `PAY ${formatCents(amountCents)}`}
        </Button>
      </div>
    </form>
  );
}
