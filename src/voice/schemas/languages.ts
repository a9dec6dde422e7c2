/**
 * The 80 language codes `say` and TEXT play content take, exactly as Infobip spells them: mostly
 * lowercase and hyphenated (`pt-br`, `zh-cn`), with `ar_xa` the one underscore.
 */
export const CALL_LANGUAGES = [
  'ar', 'ar-ma', 'ar_xa', 'bg', 'bn', 'bn-in', 'ca', 'cmn-cn', 'cs', 'da',
  'de', 'de-at', 'de-ch', 'el', 'en', 'en-au', 'en-ca', 'en-gb', 'en-gb-wls', 'en-ie',
  'en-in', 'en-ph', 'es', 'es-419', 'es-ar', 'es-co', 'es-mx', 'es-us', 'et-ee', 'fi',
  'fil-ph', 'fr', 'fr-ca', 'fr-ch', 'gu', 'he', 'hi', 'hr', 'hu', 'id',
  'is', 'it', 'ja', 'kk-kz', 'kn', 'ko', 'lt', 'lv', 'ml', 'mr-in',
  'ms', 'nb-no', 'nl', 'nl-be', 'no', 'pa-in', 'pl', 'pt-br', 'pt-pt', 'ro',
  'ru', 'sk', 'sl', 'sr-rs', 'sv', 'sw-ke', 'sw-tz', 'ta', 'te', 'th',
  'tr', 'uk', 'ur-in', 'ur-pk', 'uz-uz', 'vi', 'wls', 'yue-hk', 'zh-cn', 'zh-tw',
] as const;

export type CallLanguage = (typeof CALL_LANGUAGES)[number];
