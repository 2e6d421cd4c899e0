import { useId, useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { AdminUser } from '#shared/contracts/wallet.ts';
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
import { Label } from '#client/components/ui/label.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { useDeleteUser } from '../api/delete-user.ts';

/**
 * The product's Delete User (docs/product.md#screens), behind a confirmation that says the deletion
 * is permanent.
 */
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const deleteUser = useDeleteUser();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setReason('');
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-red-300 hover:text-red-200">
          <Trash2 aria-hidden="true" />
          DELETE USER
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete {user.username}?</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="space-y-2">
            <p className="font-semibold text-red-200">
              Deleting a user is permanent and cannot be undone.
            </p>
            <p>
              Their sessions end at once, open challenges are cancelled and refunded, accepted
              challenges go to the dispute queue, pending payouts fail, and the remaining balance (
              {formatDollars(user.balance)}) moves to unclaimed funds. Their personal data is
              erased; the ledger history stays.
            </p>
          </div>
        </AlertDialogDescription>
        <div className="mt-4 space-y-1.5">
          <Label htmlFor={reasonId}>Reason (optional)</Label>
          <Textarea
            id={reasonId}
            rows={2}
            maxLength={1000}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">KEEP USER</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={deleteUser.isPending}
            onClick={() =>
              deleteUser.mutate(
                { userId: user.id, reason: reason.trim() || undefined },
                { onSuccess: () => setOpen(false) },
              )
            }
          >
            {deleteUser.isPending ? 'DELETING...' : 'DELETE PERMANENTLY'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
