import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Mail } from 'lucide-react';
import { updateEmailBodySchema, type UpdateEmailBody } from '#shared/contracts/profile.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { invalidEmailToast, useUpdateEmail, type UpdateEmailInput } from '../api/update-email.ts';

function UpdateEmailForm({
  currentEmail,
  onUpdated,
}: {
  currentEmail: string | null;
  onUpdated: () => void;
}) {
  const updateEmail = useUpdateEmail();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UpdateEmailBody, unknown, UpdateEmailInput>({
    // The product's simple pattern (docs/product.md#validation) (text, an @, a dot), shared with
    // the server.
    resolver: zodResolver(updateEmailBodySchema),
    defaultValues: { email: currentEmail ?? '' },
  });

  const onSubmit = handleSubmit(
    (values) =>
      updateEmail.mutate(values, {
        onSuccess: onUpdated,
        onError: (error) => applyServerFieldErrors(error, setError, ['email']),
      }),
    // docs/product.md#messages: a malformed address is refused with a toast as well as under the
    // field.
    () => invalidEmailToast(),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="Email" error={errors.email?.message}>
        {(control) => (
          <Input
            {...control}
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@example.com"
            {...register('email')}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={updateEmail.isPending}>
        <Mail aria-hidden="true" />
        {updateEmail.isPending ? 'SAVING...' : 'SAVE EMAIL'}
      </Button>
    </form>
  );
}

/** docs/product.md#screens: the Update Email dialog on the profile's contact card. */
export function UpdateEmailDialog({ currentEmail }: { currentEmail: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="w-full">
          <Mail aria-hidden="true" />
          Update Email
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Update Email</DialogTitle>
          <DialogDescription>
            We send match results and payout updates to this address.
          </DialogDescription>
        </DialogHeader>
        <UpdateEmailForm currentEmail={currentEmail} onUpdated={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
