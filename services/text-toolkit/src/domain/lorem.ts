import { between, pick, type RandomInt } from "./random.js";

export const PARAGRAPHS = { min: 1, max: 50, default: 3 } as const;

const OPENING = "Lorem ipsum dolor sit amet, consectetur adipiscing elit";

// The vocabulary of Cicero's De finibus as the classic placeholder text uses it.
const VOCABULARY = (
  "a ac accumsan ad adipiscing aenean aliquam aliquet amet ante aptent arcu at auctor augue bibendum blandit class commodo " +
  "condimentum congue consectetur consequat conubia convallis cras cubilia curabitur curae cursus dapibus diam dictum dictumst " +
  "dignissim dis dolor donec dui duis efficitur egestas eget eleifend elementum elit enim erat eros est et etiam eu euismod ex " +
  "facilisi facilisis fames faucibus felis fermentum feugiat finibus fringilla fusce gravida habitant habitasse hac hendrerit " +
  "himenaeos iaculis id imperdiet in inceptos integer interdum ipsum justo lacinia lacus laoreet lectus leo libero ligula litora " +
  "lobortis lorem luctus maecenas magna magnis malesuada massa mattis mauris maximus metus mi molestie mollis montes morbi mus " +
  "nam nascetur natoque nec neque netus nibh nisi nisl non nostra nulla nullam nunc odio orci ornare parturient pellentesque " +
  "penatibus per pharetra phasellus placerat platea porta porttitor posuere potenti praesent pretium primis proin pulvinar purus " +
  "quam quis quisque rhoncus ridiculus risus rutrum sagittis sapien scelerisque sed sem semper senectus sit sociosqu sodales " +
  "sollicitudin suscipit suspendisse taciti tellus tempor tempus tincidunt torquent tortor tristique turpis ullamcorper ultrices " +
  "ultricies urna ut varius vehicula vel velit venenatis vestibulum vitae vivamus viverra volutpat vulputate"
).split(" ");

function sentence(randomInt: RandomInt): string {
  const words = Array.from({ length: between(6, 14, randomInt) }, () => pick(VOCABULARY, randomInt));
  // A comma after a word in the first half of a long sentence, as prose would have.
  if (words.length > 9) words[between(3, Math.floor(words.length / 2), randomInt)] += ",";
  const text = words.join(" ");
  return text[0].toUpperCase() + text.slice(1) + ".";
}

function paragraph(first: boolean, randomInt: RandomInt): string {
  const sentences = Array.from({ length: between(4, 8, randomInt) }, () => sentence(randomInt));
  if (first) sentences[0] = OPENING + ".";
  return sentences.join(" ");
}

/** Fresh random paragraphs on each call; the first may open with the traditional "Lorem ipsum…". */
export function loremParagraphs(count: number, startWithLorem: boolean, randomInt: RandomInt): string[] {
  return Array.from({ length: count }, (_, i) => paragraph(i === 0 && startWithLorem, randomInt));
}
