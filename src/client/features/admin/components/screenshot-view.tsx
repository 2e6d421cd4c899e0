import { useState } from 'react';
import { ExternalLink, ImageOff } from 'lucide-react';
import { safeScreenshotHref } from '#client/features/challenges/lib/challenge-rules.ts';
import { Missing } from './facts.tsx';

/**
 * A screenshot link, made clickable only when it is https or one of our own uploads
 * (docs/architecture.md#files-and-mail); the same rule the challenge pages apply. Anything else is
 * shown as inert text.
 */
export function ScreenshotLink({ screenshot }: { screenshot: string | null }) {
  if (!screenshot) return <Missing>None</Missing>;
  const href = safeScreenshotHref(screenshot);
  if (!href) return <span className="break-all text-slate-300">{screenshot}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 text-accent underline underline-offset-4 hover:text-accent-strong"
    >
      View screenshot
      <ExternalLink aria-hidden="true" className="size-3.5" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

export const IMAGE_LOAD_FAILED = 'Image could not be loaded';

/** An image with the product's fallback text (docs/product.md#screens) when it cannot be shown. */
export function ImageWithFallback({ src, alt }: { src: string; alt: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (failedSrc === src) {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-dashed border-ink-600 bg-ink-900/50 p-4 text-sm text-slate-300">
        <ImageOff aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
        {IMAGE_LOAD_FAILED}
      </p>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setFailedSrc(src)}
      className="max-h-96 w-full rounded-lg border border-ink-700 bg-ink-950 object-contain"
    />
  );
}

/** The screenshot itself in the details dialog: the image when its link is safe to load. */
export function ScreenshotImage({ screenshot, alt }: { screenshot: string | null; alt: string }) {
  if (!screenshot) return <Missing>No screenshot was submitted.</Missing>;
  const href = safeScreenshotHref(screenshot);
  if (!href) {
    return (
      <p className="text-sm text-slate-300">
        Not shown: the link is not https. <span className="break-all">{screenshot}</span>
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <ImageWithFallback src={href} alt={alt} />
      <ScreenshotLink screenshot={screenshot} />
    </div>
  );
}
