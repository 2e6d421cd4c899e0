import { Link } from 'wouter';
import { DELETED_USERNAME_PREFIX } from '#shared/lobby.ts';
import { cn } from '#client/lib/cn.ts';

/** The address of a player's page (docs/challenges.md#finding-an-opponent). */
export const playerPath = (username: string) => `/players/${encodeURIComponent(username)}`;

/**
 * A username, linked to the player's page. A closed account has no page, so its name stays
 * text. The link never wraps inside itself, so that it has one box for the keyboard's focus ring.
 */
export function PlayerLink({ username, className }: { username: string; className?: string }) {
  if (username.startsWith(DELETED_USERNAME_PREFIX))
    return <span className={className}>{username}</span>;
  return (
    <Link
      href={playerPath(username)}
      className={cn(
        'inline-block max-w-full truncate rounded-sm align-bottom text-accent-strong underline decoration-accent/50 underline-offset-2 hover:text-white',
        className,
      )}
    >
      {username}
    </Link>
  );
}
