import { Link } from 'wouter';
import { House } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';

export function NotFoundPage() {
  return (
    <div className="flex min-h-[60dvh] flex-col items-center justify-center gap-6 text-center">
      <p
        aria-hidden="true"
        className="bg-linear-to-b from-accent to-accent-2 bg-clip-text font-display text-8xl font-black text-transparent sm:text-9xl"
      >
        404
      </p>
      <div className="space-y-3">
        <h1 className="font-display text-2xl font-black tracking-[0.2em] text-white">NOT FOUND</h1>
        <p className="max-w-md text-slate-300">
          This page is out of bounds. The link may be broken, or the page may have moved.
        </p>
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
