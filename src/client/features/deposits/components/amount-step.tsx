import { useRef, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowRight } from 'lucide-react';
import { depositAmountSchema, PAYMENT_MESSAGES } from '#shared/contracts/payments.ts';
import { RESPONSIBLE_GAMING_MESSAGES } from '#shared/contracts/responsible-gaming.ts';
import type { Cents } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { toast, type ToastHandle } from '#client/lib/toast.ts';
import {
  tightestRoom,
  useResponsibleGaming,
} from '#client/features/responsible-gaming/api/responsible-gaming.ts';
import { DEPOSIT_TITLES } from '../lib/deposit-messages.ts';

const amountFormSchema = z.object({ amount: depositAmountSchema });
type AmountFormValues = z.input<typeof amountFormSchema>;
type AmountFormOutput = z.output<typeof amountFormSchema>;

export interface AmountStepProps {
  /** The amount entered before, when the player comes back from a payment panel. */
  defaultAmount: string;
  onContinue: (amountCents: Cents) => void;
}

/**
 * The entry step: an amount from $10 to $10,000, checked with the server's own schema, and within
 * the deposit limits the player set. A refused amount is said under the field and in a toast: the
 * SPEC's INVALID AMOUNT (docs/product.md#validation), or DEPOSIT LIMIT REACHED.
 */
export function AmountStep({ defaultAmount, onContinue }: AmountStepProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AmountFormValues, unknown, AmountFormOutput>({
    resolver: zodResolver(amountFormSchema),
    defaultValues: { amount: defaultAmount },
  });

  const rules = useResponsibleGaming({ fresh: true });

  // The INVALID AMOUNT toast is withdrawn once a good amount is entered, not left to time out.
  const invalidToast = useRef<ToastHandle | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    handleSubmit(
      ({ amount }) => {
        invalidToast.current?.dismiss();
        // The player's own limits (docs/responsible-play.md), mirrored: the server judges again,
        // under its lock.
        const room = rules.data ? tightestRoom(rules.data) : null;
        if (room && amount > room.left) {
          const message = RESPONSIBLE_GAMING_MESSAGES.depositOverLimit(room.key, room.left);
          setError('amount', { message });
          invalidToast.current = toast({
            title: DEPOSIT_TITLES.depositLimit,
            description: message,
            variant: 'destructive',
          });
          return;
        }
        onContinue(amount);
      },
      (invalid) => {
        invalidToast.current = toast({
          title: DEPOSIT_TITLES.invalidAmount,
          description: invalid.amount?.message ?? PAYMENT_MESSAGES.amountInvalid,
          variant: 'destructive',
        });
      },
    )(event);

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field
        label="Amount ($)"
        error={errors.amount?.message}
        hint="Minimum $10, maximum $10,000 per deposit."
      >
        {(control) => (
          <Input
            {...control}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 50"
            {...register('amount')}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full">
        CONTINUE
        <ArrowRight aria-hidden="true" />
      </Button>
    </form>
  );
}
