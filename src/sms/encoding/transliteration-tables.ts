/**
 * Replacement tables for transliteration. Infobip does not document what each of its
 * transliteration codes replaces, so these tables are our own choice: each maps characters
 * outside GSM 03.38 to the closest GSM-representable text. Tables list lower-case letters;
 * upper-case forms are derived (see transliteration.ts) unless listed explicitly.
 */

export type ReplacementTable = Readonly<Record<string, string>>;

export const TURKISH: ReplacementTable = {
  ş: 's', ğ: 'g', ı: 'i', ç: 'c', â: 'a', î: 'i', û: 'u', İ: 'I',
};

export const CENTRAL_EUROPEAN: ReplacementTable = {
  á: 'a', ą: 'a', ă: 'a', â: 'a', č: 'c', ć: 'c', ď: 'd', đ: 'd', ę: 'e', ě: 'e',
  í: 'i', î: 'i', ĺ: 'l', ľ: 'l', ł: 'l', ń: 'n', ň: 'n', ó: 'o', ô: 'o', ő: 'o',
  ŕ: 'r', ř: 'r', ś: 's', š: 's', ș: 's', ş: 's', ť: 't', ț: 't', ţ: 't', ú: 'u',
  ů: 'u', ű: 'u', ý: 'y', ź: 'z', ż: 'z', ž: 'z',
};

export const BALTIC: ReplacementTable = {
  ā: 'a', ą: 'a', č: 'c', ē: 'e', ę: 'e', ė: 'e', ģ: 'g', ī: 'i', į: 'i', ķ: 'k',
  ļ: 'l', ņ: 'n', õ: 'o', ŗ: 'r', š: 's', ū: 'u', ų: 'u', ž: 'z',
};

export const PORTUGUESE: ReplacementTable = {
  á: 'a', â: 'a', ã: 'a', ç: 'c', ê: 'e', í: 'i', ó: 'o', ô: 'o', õ: 'o', ú: 'u', À: 'A',
};

export const COLOMBIAN: ReplacementTable = {
  á: 'a', í: 'i', ó: 'o', ú: 'u', ç: 'c',
};

/** Greek lower case maps to the upper-case Greek letters GSM has, else to Latin lookalikes. */
export const GREEK: ReplacementTable = {
  α: 'A', β: 'B', γ: 'Γ', δ: 'Δ', ε: 'E', ζ: 'Z', η: 'H', θ: 'Θ', ι: 'I', κ: 'K',
  λ: 'Λ', μ: 'M', ν: 'N', ξ: 'Ξ', ο: 'O', π: 'Π', ρ: 'P', σ: 'Σ', ς: 'Σ', τ: 'T',
  υ: 'Y', φ: 'Φ', χ: 'X', ψ: 'Ψ', ω: 'Ω', ά: 'A', έ: 'E', ή: 'H', ί: 'I', ό: 'O',
  ύ: 'Y', ώ: 'Ω', ϊ: 'I', ϋ: 'Y', ΐ: 'I', ΰ: 'Y',
};

/** Russian, Ukrainian and Belarusian letters, romanised in the common passport style. */
export const CYRILLIC: ReplacementTable = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i',
  й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't',
  у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '',
  э: 'e', ю: 'yu', я: 'ya', є: 'ye', і: 'i', ї: 'yi', ґ: 'g', ў: 'u',
};

/** Serbian Cyrillic to Serbian Latin, with the Latin diacritics then dropped (č→c, đ→dj). */
export const SERBIAN_CYRILLIC: ReplacementTable = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ђ: 'dj', е: 'e', ж: 'z', з: 'z', и: 'i',
  ј: 'j', к: 'k', л: 'l', љ: 'lj', м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r',
  с: 's', т: 't', ћ: 'c', у: 'u', ф: 'f', х: 'h', ц: 'c', ч: 'c', џ: 'dz', ш: 's',
};

/** Bulgarian Streamlined System. */
export const BULGARIAN_CYRILLIC: ReplacementTable = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y',
  к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u',
  ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sht', ъ: 'a', ь: 'y', ю: 'yu', я: 'ya',
};

/** Letters without a decomposition, so the diacritic-stripping fallback cannot reach them. */
export const LATIN_EXTRA: ReplacementTable = {
  œ: 'oe', Œ: 'OE', ð: 'd', Ð: 'D', þ: 'th', Þ: 'Th', ħ: 'h', Ħ: 'H', ŀ: 'l', Ŀ: 'L', ĸ: 'k',
};

export const PUNCTUATION: ReplacementTable = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
  '\u00ab': '"', '\u00bb': '"',
  '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2026': '...', '\u00a0': ' ',
};
