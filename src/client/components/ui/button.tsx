import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '#client/lib/cn.ts';

export type ButtonVariant = 'primary' | 'outline' | 'ghost' | 'destructive' | 'floating';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

const variantClasses: Record<ButtonVariant, string> = {
  primary:
    'bg-accent text-accent-contrast shadow-[0_0_24px_-6px_var(--accent-glow)] hover:bg-accent-strong',
  outline: 'border border-accent/70 text-accent hover:bg-accent/10 hover:text-accent-strong',
  ghost: 'text-slate-200 hover:bg-white/8 hover:text-white',
  destructive: 'bg-red-600 text-white hover:bg-red-500',
  floating:
    'border border-accent/50 bg-ink-900/90 text-accent shadow-lg backdrop-blur hover:bg-ink-800 hover:text-accent-strong',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-[0.7rem]',
  md: 'h-11 px-5 text-xs',
  lg: 'h-12 px-6 text-sm',
  icon: 'size-10',
};

function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  pill = false,
): string {
  return cn(
    'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 font-display font-semibold tracking-wider whitespace-nowrap transition-colors',
    'disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
    pill ? 'rounded-full' : 'rounded-md',
    variantClasses[variant],
    sizeClasses[size],
  );
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Fully rounded ends, for floating controls. */
  pill?: boolean;
  /** Renders the single child (a link, say) with the button's look instead of a <button>. */
  asChild?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  pill = false,
  asChild = false,
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  const classes = cn(buttonClasses(variant, size, pill), className);
  if (asChild) return <Slot.Root className={classes} {...props} />;
  return <button type={type} className={classes} {...props} />;
}
