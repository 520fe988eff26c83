import { hasSolidDarkAreas } from "../src/domain/dark-areas.js";
import { renderTextPng, toGrayRaw } from "../test/support/render.js";
for (const pt of [11, 14, 18, 24, 32, 40, 60]) for (const font of ["DejaVu Sans", "DejaVu Sans Bold", "DejaVu Serif"]) {
  const png = await renderTextPng("Plain text on paper needs no inverted reading. Large Heading MW", { pointSize: pt, font });
  console.log(pt, font, hasSolidDarkAreas(await toGrayRaw(png)));
}
