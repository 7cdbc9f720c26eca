import { lang } from '../i18n/i18n.ts';

/**
 * A file's size as the visitor's language writes it (`Intl.NumberFormat`'s units): `312 bytes`,
 * `840 kB`, `4.2 MB`, `48 MB`. Counted in 1,024s, as sites set their limits: the default
 * 10,485,760 bytes reads "10 MB", not "10.5 MB".
 *
 * @example fileSize(10_485_760) // '10 MB'
 */
export function fileSize(bytes: number): string {
  const unit = bytes < 1024 ? 'byte' : bytes < 1024 ** 2 ? 'kilobyte' : 'megabyte';
  const value = unit === 'byte' ? bytes : unit === 'kilobyte' ? bytes / 1024 : bytes / 1024 ** 2;
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: unit === 'megabyte' && value < 10 ? 1 : 0,
  }).format(value);
}
