/**
 * The demo's unit converter: length, mass, volume, time, speed, data and temperature, with the
 * names people type ("km", "kilometres", "miles", "°F"…). Pure; throws `UnitError` with the
 * units it knows when it cannot convert.
 */

export class UnitError extends Error {
  override name = 'UnitError';
}

interface Unit {
  kind: string;
  /** Multiply by this to reach the kind's base unit (temperature: see toKelvin). */
  factor: number;
  symbol: string;
}

const units = new Map<string, Unit>();

function define(kind: string, symbol: string, factor: number, ...names: string[]): void {
  const unit = { kind, factor, symbol };
  for (const name of [symbol, ...names]) units.set(name.toLowerCase(), unit);
}

// Length (metre)
define('length', 'm', 1, 'meter', 'meters', 'metre', 'metres');
define('length', 'km', 1000, 'kilometer', 'kilometers', 'kilometre', 'kilometres');
define('length', 'cm', 0.01, 'centimeter', 'centimeters', 'centimetre', 'centimetres');
define('length', 'mm', 0.001, 'millimeter', 'millimeters', 'millimetre', 'millimetres');
define('length', 'mi', 1609.344, 'mile', 'miles');
define('length', 'yd', 0.9144, 'yard', 'yards');
define('length', 'ft', 0.3048, 'foot', 'feet');
define('length', 'in', 0.0254, 'inch', 'inches');
define('length', 'nmi', 1852, 'nautical mile', 'nautical miles');
// Mass (kilogram)
define('mass', 'kg', 1, 'kilogram', 'kilograms', 'kilo', 'kilos');
define('mass', 'g', 0.001, 'gram', 'grams');
define('mass', 'mg', 1e-6, 'milligram', 'milligrams');
define('mass', 't', 1000, 'tonne', 'tonnes', 'metric ton', 'metric tons');
define('mass', 'lb', 0.45359237, 'lbs', 'pound', 'pounds');
define('mass', 'oz', 0.028349523125, 'ounce', 'ounces');
define('mass', 'st', 6.35029318, 'stone', 'stones');
// Volume (litre)
define('volume', 'l', 1, 'liter', 'liters', 'litre', 'litres');
define('volume', 'ml', 0.001, 'milliliter', 'milliliters', 'millilitre', 'millilitres');
define('volume', 'gal', 3.785411784, 'gallon', 'gallons', 'us gallon', 'us gallons');
define('volume', 'qt', 0.946352946, 'quart', 'quarts');
define('volume', 'pt', 0.473176473, 'pint', 'pints');
define('volume', 'cup', 0.2365882365, 'cups');
define('volume', 'fl oz', 0.0295735295625, 'floz', 'fluid ounce', 'fluid ounces');
define('volume', 'tbsp', 0.01478676478125, 'tablespoon', 'tablespoons');
define('volume', 'tsp', 0.00492892159375, 'teaspoon', 'teaspoons');
// Time (second)
define('time', 's', 1, 'sec', 'secs', 'second', 'seconds');
define('time', 'ms', 0.001, 'millisecond', 'milliseconds');
define('time', 'min', 60, 'mins', 'minute', 'minutes');
define('time', 'h', 3600, 'hr', 'hrs', 'hour', 'hours');
define('time', 'day', 86400, 'days', 'd');
define('time', 'week', 604800, 'weeks', 'wk');
// Speed (metre per second)
define('speed', 'm/s', 1, 'mps', 'meters per second', 'metres per second');
define('speed', 'km/h', 1 / 3.6, 'kph', 'kmh', 'kilometers per hour', 'kilometres per hour');
define('speed', 'mph', 0.44704, 'miles per hour', 'mi/h');
define('speed', 'kn', 0.514444, 'knot', 'knots', 'kt');
// Data (byte)
define('data', 'B', 1, 'byte', 'bytes');
define('data', 'KB', 1e3, 'kilobyte', 'kilobytes');
define('data', 'MB', 1e6, 'megabyte', 'megabytes');
define('data', 'GB', 1e9, 'gigabyte', 'gigabytes');
define('data', 'TB', 1e12, 'terabyte', 'terabytes');
define('data', 'KiB', 1024, 'kibibyte', 'kibibytes');
define('data', 'MiB', 1024 ** 2, 'mebibyte', 'mebibytes');
define('data', 'GiB', 1024 ** 3, 'gibibyte', 'gibibytes');
// Temperature: offsets, handled apart.
define('temperature', '°C', Number.NaN, 'c', 'celsius', 'degc', 'degrees celsius', 'centigrade');
define('temperature', '°F', Number.NaN, 'f', 'fahrenheit', 'degf', 'degrees fahrenheit');
define('temperature', 'K', Number.NaN, 'k', 'kelvin', 'kelvins');

function unitOf(name: string): Unit {
  if (typeof name !== 'string') throw new UnitError('A unit must be text');
  const key = name.trim().toLowerCase().replace(/\s+/g, ' ');
  const unit = units.get(key) ?? units.get(key.replace(/^°/, ''));
  if (!unit) throw new UnitError(`Unknown unit '${name}'. Known: ${knownUnits().join(', ')}`);
  return unit;
}

/** The symbols of every unit, grouped by kind. */
export function knownUnits(): string[] {
  return [...new Set([...units.values()].map((u) => u.symbol))];
}

const toKelvin: Record<string, (x: number) => number> = {
  '°C': (c) => c + 273.15,
  '°F': (f) => ((f - 32) * 5) / 9 + 273.15,
  K: (k) => k,
};
const fromKelvin: Record<string, (x: number) => number> = {
  '°C': (k) => k - 273.15,
  '°F': (k) => ((k - 273.15) * 9) / 5 + 32,
  K: (k) => k,
};

export interface Conversion {
  value: number;
  from: string;
  to: string;
  result: number;
  /** "5 km = 3.10686 mi". */
  text: string;
}

export function convert(value: number, from: string, to: string): Conversion {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new UnitError('The value must be a finite number');
  const a = unitOf(from);
  const b = unitOf(to);
  if (a.kind !== b.kind) throw new UnitError(`Cannot convert ${a.kind} (${a.symbol}) to ${b.kind} (${b.symbol})`);
  let raw: number;
  if (a.kind === 'temperature') {
    const kelvin = (toKelvin[a.symbol] as (x: number) => number)(value);
    if (kelvin < 0) throw new UnitError(`${value} ${a.symbol} is below absolute zero`);
    raw = (fromKelvin[b.symbol] as (x: number) => number)(kelvin);
  } else raw = (value * a.factor) / b.factor;
  const result = Number(raw.toPrecision(6));
  return { value, from: a.symbol, to: b.symbol, result, text: `${value} ${a.symbol} = ${result} ${b.symbol}` };
}
