import { useId, useState } from 'react';
import { Check, X } from 'lucide-react';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { checkBalanceChange, useAdjustBalance } from '../api/adjust-balance.ts';

export interface ModifyBalanceFormProps {
  user: AdminUser;
  onDone: () => void;
}

/**
 * The product's inline Modify Balance (docs/product.md#screens): a signed amount with Update and
 * Cancel, and a reason for the audit log. The amount is checked in the SPEC's words before anything
 * is sent.
 */
export function ModifyBalanceForm({ user, onDone }: ModifyBalanceFormProps) {
  const formId = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const adjust = useAdjustBalance();

  const submit = () => {
    const check = checkBalanceChange(user.id, amount);
    if (!check.ok) {
      setError(check.message);
      return;
    }
    setError(undefined);
    adjust.mutate(
      {
        userId: user.id,
        username: user.username,
        amountCents: check.amountCents,
        reason: reason.trim() || undefined,
      },
      { onSuccess: onDone },
    );
  };

  return (
    <form
      noValidate
      aria-label={`Modify balance of ${user.username}`}
      id={formId}
      className="space-y-4 rounded-lg border border-accent/30 bg-accent/5 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Amount ($)"
          error={error}
          hint="Positive adds to the balance, negative takes away: 25 or -3.50."
        >
          {(control) => (
            <Input
              {...control}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              // The form opens on request, so the amount is where the typing starts.
              autoFocus
              value={amount}
              onChange={(event) => setAmount(event.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Reason (optional)" hint="Kept in the audit log.">
          {(control) => (
            <Input
              {...control}
              type="text"
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" size="sm" disabled={adjust.isPending}>
          <Check aria-hidden="true" />
          {adjust.isPending ? 'UPDATING...' : 'UPDATE'}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          <X aria-hidden="true" />
          CANCEL
        </Button>
      </div>
    </form>
  );
}
