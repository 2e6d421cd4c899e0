import { Link } from 'wouter';
import { House } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';

/** The app's 404, for a path that leads nowhere. */
export function NotFoundPage() {
  return <NotFound />;
}

/** The 404 of a page that does not exist, or of a named thing (a player) that does not. */
export function NotFound({
  title = 'NOT FOUND',
  description = 'This page is out of bounds. The link may be broken, or the page may have moved.',
}: {
  title?: string;
  description?: string;
}) {
  return (
    <div className="flex min-h-[60dvh] flex-col items-center justify-center gap-6 text-center">
      <p
        aria-hidden="true"
        className="bg-linear-to-b from-accent to-accent-2 bg-clip-text font-display text-8xl font-black text-transparent sm:text-9xl"
      >
        404
      </p>
      <div className="space-y-3">
        <h1 className="font-display text-2xl font-black tracking-[0.2em] break-words text-white">
          {title}
        </h1>
        <p className="max-w-md break-words text-slate-300">{description}</p>
      </div>
      <Button asChild size="lg">
        <Link href="/">
          <House aria-hidden="true" />
          BACK TO HOME
        </Link>
      </Button>
    </div>
  );
}
