import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import jsQR from 'jsqr';
import { SANDBOX_ADDRESS } from '../testing/payments-api.ts';
import { QrCode } from './qr-code.tsx';

/** Paints the drawn SVG path into pixels (`scale` per module), as a camera would see it. */
function rasterize(svg: SVGElement, scale: number) {
  const [, , size] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
  if (!size) throw new Error('the QR code has no viewBox');
  const d = svg.querySelector('path')?.getAttribute('d') ?? '';
  const width = size * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y, length] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row += 1) {
      for (
        let column = Number(x) * scale;
        column < (Number(x) + Number(length)) * scale;
        column += 1
      ) {
        pixels.fill(0, (row * width + column) * 4, (row * width + column) * 4 + 3);
      }
    }
  }
  return { pixels, width };
}

describe('the payment address QR code', () => {
  it.each([
    ['a testnet address', SANDBOX_ADDRESS],
    ['a long address with mixed case', '0x52908400098527886E0F7030069857D2E4169EE7'],
  ])('scans back to %s', (_case, address) => {
    render(<QrCode value={address} label="QR code of the payment address" />);
    const svg = screen.getByRole('img', { name: 'QR code of the payment address' });

    const { pixels, width } = rasterize(svg as unknown as SVGElement, 4);
    expect(jsQR(pixels, width, width)?.data).toBe(address);
  });

  it('draws a different code for a different address', () => {
    const { container, rerender } = render(<QrCode value="tb1qaaaa" label="QR" />);
    const first = container.querySelector('path')?.getAttribute('d');
    rerender(<QrCode value="tb1qbbbb" label="QR" />);
    expect(container.querySelector('path')?.getAttribute('d')).not.toBe(first);
  });
});
