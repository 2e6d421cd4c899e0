import { useMemo } from 'react';
import { create } from 'qrcode';

/** The blank margin a scanner needs around the code, in modules (the QR standard's four). */
const QUIET_ZONE_MODULES = 4;

export interface QrMatrix {
  /** Modules per side, quiet zone included. */
  size: number;
  /** One SVG path: a unit-high rectangle for every run of dark modules in a row. */
  path: string;
}

/** Encodes `text` as a QR code, drawn locally: nothing leaves the browser to make it. */
export function qrMatrix(text: string): QrMatrix {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size + QUIET_ZONE_MODULES * 2;
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column += 1;
      const x = start + QUIET_ZONE_MODULES;
      const y = row + QUIET_ZONE_MODULES;
      path += `M${x} ${y}h${column - start}v1h${start - column}z`;
    }
  }
  return { size, path };
}

export interface QrCodeProps {
  value: string;
  /** What a screen reader hears, e.g. "QR code of the payment address". */
  label: string;
  className?: string;
}

/** Dark modules on white, with crisp edges: what a phone's camera reads best. */
export function QrCode({ value, label, className }: QrCodeProps) {
  const { size, path } = useMemo(() => qrMatrix(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
