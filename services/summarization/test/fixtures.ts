/** Texts the tests share. Written for these tests; every expectation on them is worked out by hand in the test. */

/** Ten sentences, the facts first as news writes them; sentence 5 repeats sentence 0 almost word for word. */
export const NEWS_SENTENCES = [
  "The city council of Riverton approved a new budget of 4.2 million dollars for public libraries on Tuesday.",
  "The budget doubles the hours of the central library and opens two branch libraries in the northern districts.",
  "Council member Dr. Ana Ruiz said the libraries serve more than 30,000 residents every month.",
  "Critics argued that the money should have gone to road repairs instead.",
  "The vote passed by seven votes to two after a debate that lasted four hours.",
  "The Riverton council approved the new library budget of 4.2 million dollars on Tuesday.",
  "Construction of the branch libraries is expected to begin in the spring.",
  "Library staff will be hired in March, and the extended hours start in April.",
  "Residents can follow the progress on the council's website.",
  "The mayor is expected to sign the budget next week.",
];
export const NEWS_ARTICLE = NEWS_SENTENCES.join(" ");

/**
 * A news report whose first two sentences are long: 31 and 30 words, 61 together, past the 60 words at which a news
 * summary stops at two sentences. Sentences 2 and 6 carry reporting cues ("said", "on Monday").
 */
export const LONG_LEAD_SENTENCES = [
  "The regional water board of Eastham approved a plan on Monday to rebuild the old northern reservoir and the three pumping stations that have served the valley towns for sixty years.",
  "The plan replaces the cracked concrete walls of the reservoir with a steel lining and doubles the amount of water the valley towns can store through the long dry summers.",
  "Board chair Lena Ortiz said the work would protect the supply of more than forty thousand households.",
  "Farmers in the southern valley asked the board to spend the money on new irrigation canals instead.",
  "The board voted five to two after a hearing that lasted most of the afternoon.",
  "Engineers expect the first pumping station to close for repairs in the autumn.",
  "The water board said households would not see higher bills before next year.",
  "A public meeting on the building schedule will take place in the town hall next month.",
];
export const LONG_LEAD_ARTICLE = LONG_LEAD_SENTENCES.join(" ");

/** A product review in the first person, with no reporting cues: not news-like. 12 sentences, 120 words. */
export const REVIEW_SENTENCES = [
  "I bought this kettle for my small kitchen last winter.",
  "The box arrived quickly and nothing was damaged.",
  "The kettle boils a full litre of water in about three minutes.",
  "The handle stays cool and the lid opens with one button.",
  "My only complaint is the short power cord.",
  "I had to move my toaster to make room for it.",
  "The kettle is quiet compared with my old one.",
  "The water tastes clean and there is no plastic smell.",
  "I clean the filter every month and it still looks new.",
  "My sister liked it so much that she ordered one too.",
  "For the price it is a very good kettle.",
  "I would recommend it to anyone with a small kitchen.",
];
export const REVIEW = REVIEW_SENTENCES.join(" ");

/** Chinese news sentences, as a Chinese text writes them: no space between sentences. */
export const CHINESE_SENTENCES = [
  "市议会周二批准了图书馆的新预算。",
  "预算将中央图书馆的开放时间延长一倍。",
  "北部地区将开设两个新的分馆。",
  "议员表示图书馆每月为三万多名居民服务。",
  "批评者认为这笔钱应该用于修路。",
  "市长预计下周签署预算。",
];
export const CHINESE_ARTICLE = CHINESE_SENTENCES.join("");

/** The article's sentences, `marker` (when given) planted inside the fourth: "Critics led by <marker> argued...". */
export function withMarker(marker: string): string[] {
  return NEWS_SENTENCES.map((sentence) => (marker ? sentence.replace(/^Critics argued/, `Critics led by ${marker} argued`) : sentence));
}

/** A page with boilerplate around its article: none of the boilerplate may reach a summary. */
export function newsPage(marker = ""): string {
  const paragraphs = withMarker(marker)
    .map((sentence) => `<p>${sentence}</p>`)
    .join("\n");
  return `<!doctype html>
<html><head><title>Riverton approves library budget</title></head>
<body>
<nav class="menu"><a href="/">Home</a> <a href="/sports">Sports</a> <a href="/weather">Weather</a> Subscribe to our newsletter for the latest local news and exclusive offers.</nav>
<div class="sponsor-banner">Buy the new Zephyr running shoes today with a twenty percent discount on every pair.</div>
<article>
<h1>Riverton approves library budget</h1>
${paragraphs}
</article>
<aside class="sidebar">Most read: Local bakery wins national award for the best sourdough bread in the country.</aside>
<section id="comments" class="comments">
<div class="comment"><p>Greatreader99 wrote: This is a terrible waste of taxpayer money and everybody knows it.</p></div>
<div class="comment"><p>Librarylover wrote: Finally some good news for the families of the northern districts!</p></div>
</section>
<footer class="footer">Copyright Riverton Daily News. All rights reserved. Contact our advertising department.</footer>
</body></html>`;
}

/** Words from the boilerplate of newsPage, none of which occurs in the article. */
export const BOILERPLATE_WORDS = ["newsletter", "Zephyr", "sourdough", "Greatreader99", "taxpayer", "Librarylover", "Copyright", "advertising"];

/** A one-page PDF with one line of Helvetica per entry of `lines` and a Title in its Info dictionary. */
export function simplePdf(lines: string[], title: string): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = ["BT", "/F1 11 Tf", "14 TL", "40 800 Td", ...lines.map((line) => `(${escape(line)}) Tj T*`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1200 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Title (${escape(title)}) >>`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
