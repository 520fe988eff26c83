import { pick, shuffle, type RandomInt } from "./random.js";

export const PASSWORD_LENGTH = { min: 8, max: 128, default: 16 } as const;

const CHARACTER_CLASSES = {
  lowercase: "abcdefghijklmnopqrstuvwxyz",
  uppercase: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  digits: "0123456789",
  symbols: "!#$%&()*+,-./:;<=>?@[]^_{|}~",
} as const;

const AMBIGUOUS = /[Il1O0o]/g;

interface PasswordOptions {
  length: number;
  uppercase: boolean;
  digits: boolean;
  symbols: boolean;
  excludeAmbiguous: boolean;
}

interface GeneratedPassword {
  password: string;
  length: number;
  character_classes: string[];
  /** log2 of the number of passwords of this length over the alphabet (an upper bound). */
  entropy_bits: number;
}

/**
 * Lowercase always, and each requested class at least once: one character drawn from each class,
 * the rest from the union, then shuffled, every draw from the CSPRNG.
 */
export function generatePassword(options: PasswordOptions, randomInt: RandomInt): GeneratedPassword {
  const classes = (["lowercase", "uppercase", "digits", "symbols"] as const).filter((c) => c === "lowercase" || options[c]);
  const alphabets = classes.map((c) => {
    const chars = CHARACTER_CLASSES[c];
    return [...(options.excludeAmbiguous ? chars.replace(AMBIGUOUS, "") : chars)];
  });
  const union = alphabets.flat();
  const chars = alphabets.map((alphabet) => pick(alphabet, randomInt));
  while (chars.length < options.length) chars.push(pick(union, randomInt));
  return {
    password: shuffle(chars, randomInt).join(""),
    length: options.length,
    character_classes: [...classes],
    entropy_bits: Math.floor(options.length * Math.log2(union.length) * 100) / 100,
  };
}
