/**
 * Google Fonts families, used to recognise a Google family that a site hosts itself (next/font, @fontsource, a
 * copied WOFF2) and to classify a family used without a visible loader. The complete list (1,581 families) is
 * generated from the `google-fonts-complete` package by eval/record/build-google-font-list.ts; the hand list
 * below adds families renamed or added since that data (Source Sans Pro → Source Sans 3, Geist) so both names
 * resolve.
 */
import generated from './google-font-families.json' with { type: 'json' };

const EXTRA_FAMILIES = `
ABeeZee|Abril Fatface|Alegreya|Alegreya Sans|Alfa Slab One|Amatic SC|Anton|Archivo|Archivo Black|Archivo Narrow|Arimo|
Arvo|Asap|Assistant|Barlow|Barlow Condensed|Barlow Semi Condensed|Be Vietnam Pro|Bebas Neue|Bitter|Bodoni Moda|
Cabin|Cairo|Cardo|Caveat|Chakra Petch|Cinzel|Comfortaa|Cormorant|Cormorant Garamond|Crimson Pro|Crimson Text|DM Mono|
DM Sans|DM Serif Display|DM Serif Text|Dancing Script|Domine|Dosis|EB Garamond|Exo|Exo 2|Figtree|Fira Code|Fira Mono|
Fira Sans|Fira Sans Condensed|Fjalla One|Fraunces|Geist|Geist Mono|Heebo|Hind|IBM Plex Mono|IBM Plex Sans|
IBM Plex Sans Condensed|IBM Plex Serif|Inconsolata|Inter|Inter Tight|Josefin Sans|Josefin Slab|JetBrains Mono|Jost|
Kanit|Karla|Lato|Lexend|Libre Baskerville|Libre Franklin|Lilita One|Literata|Lobster|Lora|Manrope|Martel|Maven Pro|
Merriweather|Merriweather Sans|Montserrat|Montserrat Alternates|Mukta|Mulish|Nanum Gothic|Noto Sans|Noto Sans JP|
Noto Sans KR|Noto Serif|Nunito|Nunito Sans|Old Standard TT|Open Sans|Oswald|Outfit|Overpass|Oxygen|PT Sans|
PT Sans Narrow|PT Serif|Pacifico|Play|Playfair|Playfair Display|Plus Jakarta Sans|Poppins|Prompt|Public Sans|
Quattrocento|Quattrocento Sans|Questrial|Quicksand|Rajdhani|Raleway|Red Hat Display|Red Hat Text|Righteous|Roboto|
Roboto Condensed|Roboto Flex|Roboto Mono|Roboto Serif|Roboto Slab|Rubik|Saira|Sarabun|Satisfy|Shadows Into Light|
Signika|Slabo 27px|Sora|Source Code Pro|Source Sans 3|Source Sans Pro|Source Serif 4|Source Serif Pro|Space Grotesk|
Space Mono|Spectral|Syne|Teko|Titillium Web|Ubuntu|Ubuntu Mono|Unbounded|Urbanist|Varela Round|Vollkorn|Work Sans|
Yanone Kaffeesatz|Zilla Slab`;

const INDEX = new Map(
  [...(generated as string[]), ...EXTRA_FAMILIES.split('|')]
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => [name.toLowerCase(), name] as const),
);

/** The canonical Google Fonts family name for `family` (case-insensitive), or null when not a known family. */
export function googleFamily(family: string): string | null {
  return INDEX.get(family.trim().toLowerCase()) ?? null;
}
