import { Link } from 'wouter';
import { Banknote, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx';
import { useLogout } from '#client/features/auth/api/logout.ts';
import { ProfileButtonFace } from './profile-button-face.tsx';

/**
 * The PROFILE menu itself (docs/product.md#screens); ADMIN DASHBOARD is offered to admins only.
 * Mounted open, by the first press of the PROFILE button (see profile-menu.tsx).
 */
export function ProfileMenuDropdown({ user }: { user: PublicUser }) {
  const logout = useLogout();
  return (
    // Not modal: a modal menu hides the rest of the page from assistive technology while its
    // links stay focusable (axe: aria-hidden-focus). Escape and a click outside still close it.
    <DropdownMenu defaultOpen modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <ProfileButtonFace />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          Signed in as <span className="font-semibold text-slate-100">{user.username}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/profile">
            <UserRound aria-hidden="true" />
            PROFILE
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/payouts">
            <Banknote aria-hidden="true" />
            PAYOUTS
          </Link>
        </DropdownMenuItem>
        {user.isAdmin && (
          <DropdownMenuItem asChild>
            <Link href="/admin">
              <ShieldCheck aria-hidden="true" />
              ADMIN DASHBOARD
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={logout.isPending} onSelect={() => logout.mutate()}>
          <LogOut aria-hidden="true" />
          LOGOUT
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
