import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { TriangleAlert, UserX } from 'lucide-react';
import {
  ACCOUNT_CLOSE_MESSAGES,
  closeAccountBodySchema,
  type CloseAccountBody,
} from '#shared/contracts/account-data.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { useCloseAccount } from '../api/close-account.ts';

const EMPTY: CloseAccountBody = { password: '' };

/** Refusals the player can act on, said in the dialog where they asked rather than in a toast. */
const SHOWN_IN_DIALOG = new Set(['MONEY_HELD', 'FORBIDDEN', 'RATE_LIMITED']);

function CloseAccountDialog({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const closeAccount = useCloseAccount();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<CloseAccountBody>({
    resolver: zodResolver(closeAccountBodySchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit((values) => {
    setRefusal(null);
    closeAccount.mutate(values, {
      onError: (error) => {
        if (error instanceof ApiError && error.fields?.password) {
          applyServerFieldErrors(error, setError, ['password']);
          setFocus('password');
        } else if (error instanceof ApiError && error.code && SHOWN_IN_DIALOG.has(error.code)) {
          setRefusal(serverText(error));
        } else {
          toast({
            title: 'ACCOUNT NOT CLOSED',
            description: error instanceof ApiError ? serverText(error) : error.message,
            variant: 'destructive',
          });
        }
      },
    });
  });

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          reset(EMPTY);
          setRefusal(null);
        }
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="destructive" className="w-full sm:w-auto">
          <UserX aria-hidden="true" />
          CLOSE MY ACCOUNT
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Close your account?</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="space-y-2">
            <p className="font-semibold text-red-200">
              Closing your account is permanent and cannot be undone.
            </p>
            <p>
              You are signed out on every device and cannot sign in again; your name, e-mail address
              and phone number are erased. Challenges you played stay in your opponents' history.
            </p>
            {user.available > 0 && (
              <p>
                Your balance of {formatDollars(user.available)} is not paid out once the account is
                closed: withdraw it first on the{' '}
                <Link href="/payouts" className="font-semibold text-accent underline">
                  Payouts page
                </Link>
                .
              </p>
            )}
            {user.underReview > 0 && (
              <p>
                Winnings of {formatDollars(user.underReview)} are still under review: the account
                can be closed once they are yours.
              </p>
            )}
          </div>
        </AlertDialogDescription>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-5 space-y-4">
          <Field label="Your password" error={errors.password?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                {...register('password')}
              />
            )}
          </Field>
          {refusal && (
            <p
              role="alert"
              className="flex items-start gap-2 rounded-md border border-amber-400/50 bg-amber-400/10 p-3 text-sm text-amber-50"
            >
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />
              {refusal}
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline">KEEP MY ACCOUNT</Button>
            </AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={closeAccount.isPending}>
              {closeAccount.isPending ? 'CLOSING...' : 'YES, CLOSE MY ACCOUNT'}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * Close my account (docs/responsible-play.md): behind a confirmation that asks for the password.
 * The server refuses while money is in escrow or under review and says where; the dialog shows
 * that. An admin's account is closed by another admin, so an admin sees why instead of the button.
 */
export function CloseAccountCard({ user }: { user: PublicUser }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Close my account</CardTitle>
        <CardDescription>
          Leave for good. Withdraw your balance first: money left in the account is not paid out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {user.isAdmin ? (
          <p className="text-sm text-slate-300">{ACCOUNT_CLOSE_MESSAGES.adminAccount}</p>
        ) : (
          <CloseAccountDialog user={user} />
        )}
      </CardContent>
    </Card>
  );
}
