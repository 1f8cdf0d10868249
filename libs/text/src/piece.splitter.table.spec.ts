import { createIncrementalSplitter, splitText } from './piece.splitter';
import type { Splitter } from './text.types';

/** No vendor input limit: outside the limit's own tests, pieces end only at sentence and clause ends. */
const NO_LIMIT = Number.POSITIVE_INFINITY;

// Table of the splitters' decisions. Each case is checked on the whole text and fed one code unit at a time
// (which also splits surrogate pairs), so every row also checks the incremental path.

type Case = readonly [text: string, pieces: readonly string[]];

const LONG_SENTENCE = `${'The quick brown fox jumps over the lazy dog and keeps running '.repeat(40).trim()}.`;
const LONG_CLAUSES = Array.from({ length: 30 }, (_, i) => `clause number ${i + 1} is long enough`).join(', ');
const LONG_CJK = `${'这是一个很长的句子没有任何标点符号'.repeat(40)}。`;
const LONG_URL = `https://example.com/${'a.b/'.repeat(125)}index.html`;
const LONG_WORD = 'x'.repeat(100);

const ROUTER_CASES: Readonly<Record<string, readonly Case[]>> = {
  abbreviations: [
    ['We need eggs, milk, etc. and some bread.', ['We need eggs, milk, etc. and some bread.']],
    ['Bring pens, paper etc. The shop opens at nine.', ['Bring pens, paper etc.', 'The shop opens at nine.']],
    ['Compare apples vs. oranges today.', ['Compare apples vs. oranges today.']],
    ['Use a fruit, e.g. Apples or pears.', ['Use a fruit, e.g. Apples or pears.']],
    ['Pick one, i.e. The red one.', ['Pick one, i.e. The red one.']],
    ['See the notes, cf. Chapter two.', ['See the notes, cf. Chapter two.']],
    ['The firm is Acme Inc. and it is big.', ['The firm is Acme Inc. and it is big.']],
    ['I work at Acme Inc. It is big.', ['I work at Acme Inc.', 'It is big.']],
    ['The study by Smith et al. found it.', ['The study by Smith et al. found it.']],
    ['The study by Smith et al. (2020) found it.', ['The study by Smith et al. (2020) found it.']],
    ['It weighs approx. Ten kilos.', ['It weighs approx. Ten kilos.']],
    ['See Fig. 3 for details.', ['See Fig. 3 for details.']],
    ['It is No. 5 on the list.', ['It is No. 5 on the list.']],
    ['The answer is no. We tried.', ['The answer is no.', 'We tried.']],
    ['Read pp. 10 to 12.', ['Read pp. 10 to 12.']],
    ['Turn to p. 12 now.', ['Turn to p. 12 now.']],
    ['He is a Ph.D. She is an M.D. too.', ['He is a Ph.D.', 'She is an M.D. too.']],
    ['Call Acme Ltd. today.', ['Call Acme Ltd. today.']],
    ['Mr. and Mrs. Smith came.', ['Mr. and Mrs. Smith came.']],
    ['Things like this, that, etc.', ['Things like this, that,', 'etc.']],
  ],
  titles: [
    ['Dr. Smith will see you now.', ['Dr. Smith will see you now.']],
    ['Mr. Jones is here. Mrs. Jones is not.', ['Mr. Jones is here.', 'Mrs. Jones is not.']],
    ['Ask Prof. Rao about it.', ['Ask Prof. Rao about it.']],
    ['Ms. Lee and Mx. Kim are in.', ['Ms. Lee and Mx. Kim are in.']],
    ['St. Louis is a city. Mt. Fuji is a mountain.', ['St. Louis is a city.', 'Mt. Fuji is a mountain.']],
    ['Gen. Patel met Capt. Roy.', ['Gen. Patel met Capt. Roy.']],
    ['Rev. King spoke. Hon. Members agreed.', ['Rev. King spoke.', 'Hon. Members agreed.']],
    ['डॉ. शर्मा आज आएंगे।', ['डॉ. शर्मा आज आएंगे।']],
    ['Please call Dr.\nSmith tomorrow.', ['Please call Dr.', 'Smith tomorrow.']],
    ['DR. WHO is on.', ['DR. WHO is on.']],
    ['Our doctor is Dr. Mehta. She is kind.', ['Our doctor is Dr. Mehta.', 'She is kind.']],
    ['(Dr. Rao) will call.', ['(Dr. Rao) will call.']],
  ],
  initials: [
    ['J. K. Rowling wrote it.', ['J. K. Rowling wrote it.']],
    ['J.K. Rowling wrote it.', ['J.K. Rowling wrote it.']],
    ['John F. Kennedy spoke.', ['John F. Kennedy spoke.']],
    ['J.R.R. Tolkien wrote books.', ['J.R.R. Tolkien wrote books.']],
    ['We ship across the U.S. and Canada.', ['We ship across the U.S. and Canada.']],
    // Dotted capital initials never end a sentence: a missed end costs less than a name cut in two.
    ['She lives in the U.S. He lives in India.', ['She lives in the U.S. He lives in India.']],
    ['Plan B. It worked.', ['Plan B. It worked.']],
    ['A. P. J. Abdul Kalam was president.', ['A. P. J. Abdul Kalam was president.']],
  ],
  decimals: [
    ['Pi is 3.14 and e is 2.72.', ['Pi is 3.14 and e is 2.72.']],
    ['The rate rose to 4.5. Then it fell.', ['The rate rose to 4.5.', 'Then it fell.']],
    ['It costs .99 only.', ['It costs .99 only.']],
    ['Version 2.0.1 is out. Update now.', ['Version 2.0.1 is out.', 'Update now.']],
    ['The score was 9.5/10. Great job.', ['The score was 9.5/10.', 'Great job.']],
    ['It is 0.5. it is small.', ['It is 0.5.', 'it is small.']],
    ['It grew 3. 5 times more.', ['It grew 3.', '5 times more.']],
    ['२.५ किलो चावल लाओ।', ['२.५ किलो चावल लाओ।']],
    ['Temperature: -3.5 degrees.', ['Temperature: -3.5 degrees.']],
  ],
  'thousands separators': [
    [
      'We sold 1,250 units in the first quarter, and more later.',
      ['We sold 1,250 units in the first quarter,', 'and more later.'],
    ],
    ['The population is 1,234,567,890 people today.', ['The population is 1,234,567,890 people today.']],
    [
      'The price was 12,50,000 rupees last year, now it is more.',
      ['The price was 12,50,000 rupees last year,', 'now it is more.'],
    ],
    ['It costs 1,00,00,000 rupees.', ['It costs 1,00,00,000 rupees.']],
    [
      'Numbers like 1,250, 2,500, and 3,750 are round.',
      ['Numbers like 1,250, 2,500,', 'and 3,750 are round.'],
    ],
    ['He paid 1,250.50 for it.', ['He paid 1,250.50 for it.']],
    ['About 10,000. That is a lot.', ['About 10,000.', 'That is a lot.']],
    ['कुल 1,25,000 रुपये लगे।', ['कुल 1,25,000 रुपये लगे।']],
    [
      'A total of 12,345,678,901,234 items were counted.',
      ['A total of 12,345,678,901,234 items were counted.'],
    ],
  ],
  currency: [
    ['It costs $5. That is cheap.', ['It costs $5.', 'That is cheap.']],
    ['It costs $5.99 today.', ['It costs $5.99 today.']],
    ['Pay Rs. 500 now.', ['Pay Rs. 500 now.']],
    ['Pay ₹1,499.00 only.', ['Pay ₹1,499.00 only.']],
    ['It is €20. Pay by card.', ['It is €20.', 'Pay by card.']],
    ['The fee is USD 1,250.75. No refunds.', ['The fee is USD 1,250.75.', 'No refunds.']],
    ['That costs £3.50, which is fine.', ['That costs £3.50, which is fine.']],
    ['Rs. 10 or Rs. 20? Choose one.', ['Rs. 10 or Rs. 20?', 'Choose one.']],
    ['The total is ₹12,50,000. कृपया भुगतान करें।', ['The total is ₹12,50,000.', 'कृपया भुगतान करें।']],
  ],
  times: [
    ['Meet me at 10 a.m. tomorrow.', ['Meet me at 10 a.m. tomorrow.']],
    ['The shop opens at 9 a.m. It closes at 5 p.m.', ['The shop opens at 9 a.m.', 'It closes at 5 p.m.']],
    ['We start at 10:30. Be on time.', ['We start at 10:30.', 'Be on time.']],
    ['The train leaves at 5 p.m. on Monday.', ['The train leaves at 5 p.m. on Monday.']],
    ['Call at 9.30 am please.', ['Call at 9.30 am please.']],
    ['It ends at 6 p.m. 7 people stayed.', ['It ends at 6 p.m. 7 people stayed.']],
    ['Meeting at 5 p.m. कल मिलते हैं।', ['Meeting at 5 p.m. कल मिलते हैं।']],
    ['Open 24 hrs. Every day.', ['Open 24 hrs.', 'Every day.']],
    ['The call is at 14:05:30 UTC. Join early.', ['The call is at 14:05:30 UTC.', 'Join early.']],
  ],
  dates: [
    ['It was on 12.05.2024 at noon.', ['It was on 12.05.2024 at noon.']],
    ['Born on Jan. 5, 1990 in Pune.', ['Born on Jan. 5, 1990 in Pune.']],
    ['The date is 2024-05-12. Save it.', ['The date is 2024-05-12.', 'Save it.']],
    ['We met in 2019. It was fun.', ['We met in 2019.', 'It was fun.']],
    ['Due on 5/12/2024. Pay soon.', ['Due on 5/12/2024.', 'Pay soon.']],
    ['It happened in Dec. Then it ended.', ['It happened in Dec.', 'Then it ended.']],
    ['See you on Sept. 9 then.', ['See you on Sept. 9 then.']],
    ['Deadline: 31.12.2024. No extensions.', ['Deadline: 31.12.2024.', 'No extensions.']],
  ],
  urls: [
    ['Visit https://example.com/docs. Then sign in.', ['Visit https://example.com/docs.', 'Then sign in.']],
    ['Go to www.example.com today.', ['Go to www.example.com today.']],
    ['Open https://example.com/a?b=1&c=2 now.', ['Open https://example.com/a?b=1&c=2 now.']],
    ['The page is example.org/help. It has answers.', ['The page is example.org/help.', 'It has answers.']],
    ['Is it at https://example.com/faq? Yes.', ['Is it at https://example.com/faq?', 'Yes.']],
    ['Use https://example.com/#!/home to start.', ['Use https://example.com/#!/home to start.']],
    ['Visit example.com. thanks!', ['Visit example.com.', 'thanks!']],
    ['Go to http://192.168.0.1:8080/admin. Log in.', ['Go to http://192.168.0.1:8080/admin.', 'Log in.']],
    ['See (https://example.com/a.b). Next.', ['See (https://example.com/a.b).', 'Next.']],
  ],
  'e-mails': [
    ['Write to help@example.com. We reply fast.', ['Write to help@example.com.', 'We reply fast.']],
    ['Mail john.doe@example.co.in for details.', ['Mail john.doe@example.co.in for details.']],
    ['Is it jane@example.org? Please check.', ['Is it jane@example.org?', 'Please check.']],
    ['Contact a.b@c.io or x@y.com today.', ['Contact a.b@c.io or x@y.com today.']],
    [
      'Send it to first.last+tag@mail.example.com. Thanks.',
      ['Send it to first.last+tag@mail.example.com.', 'Thanks.'],
    ],
  ],
  'file names': [
    ['Open report.pdf and read it.', ['Open report.pdf and read it.']],
    ['Save it as data.csv. Then close it.', ['Save it as data.csv.', 'Then close it.']],
    ['Run setup.exe. It installs.', ['Run setup.exe.', 'It installs.']],
    ['The file archive.tar.gz is big.', ['The file archive.tar.gz is big.']],
    ['Edit .env first.', ['Edit .env first.']],
    ['Open C:\\Users\\me\\notes.txt now.', ['Open C:\\Users\\me\\notes.txt now.']],
  ],
  ellipses: [
    ['Wait... what happened?', ['Wait... what happened?']],
    ['Well… I think so.', ['Well… I think so.']],
    ['So... What now?', ['So... What now?']],
    ['Hmm.. okay.', ['Hmm.. okay.']],
    ['I was thinking... Never mind. Let us go.', ['I was thinking... Never mind.', 'Let us go.']],
    ['Really...? Yes.', ['Really...?', 'Yes.']],
    ['And then…', ['And then…']],
    ['मैं सोच रहा था... ठीक है।', ['मैं सोच रहा था... ठीक है।']],
  ],
  'quotes and brackets': [
    ['"Stop." He ran away.', ['"Stop."', 'He ran away.']],
    ['He said "Go." Then he left.', ['He said "Go."', 'Then he left.']],
    ['(This is it.) Next one.', ['(This is it.)', 'Next one.']],
    ['She asked, "Why?" He did not answer.', ['She asked, "Why?"', 'He did not answer.']],
    ['“Hello.” “Hi.”', ['“Hello.”', '“Hi.”']],
    ['It was (mostly) fine. Yes.', ['It was (mostly) fine.', 'Yes.']],
    ['[Note: see above.] Continue.', ['[Note: see above.]', 'Continue.']],
    // A plain word's full stop ends a sentence at the whitespace: the next word's case is not waited for.
    ['He said "stop." and left.', ['He said "stop."', 'and left.']],
    ["'Quiet!' she said.", ["'Quiet!'", 'she said.']],
    ['«Bonjour.» Salut.', ['«Bonjour.»', 'Salut.']],
    ['It is over. "Really?" Yes.', ['It is over.', '"Really?"', 'Yes.']],
    ['He left.) (Then she came.', ['He left.)', '(Then she came.']],
  ],
  '?!': [
    ['Really?! Yes.', ['Really?!', 'Yes.']],
    ['What?!? No way!!! Okay.', ['What?!?', 'No way!!!', 'Okay.']],
    ['Is it done? yes.', ['Is it done?', 'yes.']],
    ['Stop! Now!', ['Stop!', 'Now!']],
    ['Why?No.', ['Why?No.']],
    ['Wow‼ Great.', ['Wow‼', 'Great.']],
    ['هل أنت بخير؟ نعم.', ['هل أنت بخير؟', 'نعم.']],
    ['Hello! How are you? I am fine.', ['Hello!', 'How are you?', 'I am fine.']],
    ['¿Qué tal? ¡Muy bien!', ['¿Qué tal?', '¡Muy bien!']],
  ],
  lists: [
    ['1. Open the app. 2. Sign in. 3. Pay.', ['1. Open the app.', '2. Sign in.', '3. Pay.']],
    ['Steps: 1. Open the app. 2. Sign in.', ['Steps: 1. Open the app.', '2. Sign in.']],
    ['Steps:\n1. Open the app\n2. Sign in\n3. Pay', ['Steps:', '1. Open the app', '2. Sign in', '3. Pay']],
    ['- Eggs\n- Milk\n- Bread', ['- Eggs', '- Milk', '- Bread']],
    ['You need: 1. a pen 2. paper', ['You need: 1. a pen 2.', 'paper']],
    ['We won in 2019. 2020 was bad.', ['We won in 2019.', '2020 was bad.']],
    ['10. Last item here.', ['10. Last item here.']],
    ['a) first b) second.', ['a) first b) second.']],
    ['Done.\n\n2. Next step here.', ['Done.', '2. Next step here.']],
  ],
  'danda (Hindi)': [
    ['मैं ठीक हूँ। आप कैसे हैं?', ['मैं ठीक हूँ।', 'आप कैसे हैं?']],
    ['नमस्ते।आप कैसे हैं?', ['नमस्ते।', 'आप कैसे हैं?']],
    ['राम ने कहा॥ सीता चुप रहीं।', ['राम ने कहा॥', 'सीता चुप रहीं।']],
    ['यह अच्छा है।। बहुत अच्छा।', ['यह अच्छा है।।', 'बहुत अच्छा।']],
    ['क्या आप आएंगे? हाँ, ज़रूर।', ['क्या आप आएंगे?', 'हाँ, ज़रूर।']],
    ['"चलो।" वह बोला।', ['"चलो।"', 'वह बोला।']],
    ['यह है।, और यह भी।', ['यह है।', ', और यह भी।']],
  ],
  'danda (Marathi)': [
    ['मी ठीक आहे. तुम्ही कसे आहात?', ['मी ठीक आहे.', 'तुम्ही कसे आहात?']],
    ['माझे नाव राहुल आहे। मी पुण्यात राहतो।', ['माझे नाव राहुल आहे।', 'मी पुण्यात राहतो।']],
    ['आज पाऊस आहे, पण आम्ही बाहेर जाणार आहोत।', ['आज पाऊस आहे, पण आम्ही बाहेर जाणार आहोत।']],
    ['धन्यवाद॥नमस्कार।', ['धन्यवाद॥', 'नमस्कार।']],
  ],
  'danda (Bengali)': [
    ['আমি ভালো আছি। তুমি কেমন আছ?', ['আমি ভালো আছি।', 'তুমি কেমন আছ?']],
    ['আজ বৃষ্টি হচ্ছে।আমরা বাড়িতে থাকব।', ['আজ বৃষ্টি হচ্ছে।', 'আমরা বাড়িতে থাকব।']],
    ['ডাক্তার এসেছেন। তিনি বললেন, "বিশ্রাম নিন।"', ['ডাক্তার এসেছেন।', 'তিনি বললেন, "বিশ্রাম নিন।"']],
    ['দাম ১,২৫০ টাকা। ধন্যবাদ।', ['দাম ১,২৫০ টাকা।', 'ধন্যবাদ।']],
  ],
  'mixed Latin and Devanagari': [
    ['Your order is confirmed. आपका ऑर्डर पक्का है।', ['Your order is confirmed.', 'आपका ऑर्डर पक्का है।']],
    ['मेरा meeting 5 p.m. पर है।', ['मेरा meeting 5 p.m. पर है।']],
    ['Dr. शर्मा आएंगे। Please wait.', ['Dr. शर्मा आएंगे।', 'Please wait.']],
    ['Price ₹1,250 है। Pay now.', ['Price ₹1,250 है।', 'Pay now.']],
    ['OK. ठीक है।', ['OK.', 'ठीक है।']],
    ['आपका OTP 4821 है. Please share it.', ['आपका OTP 4821 है.', 'Please share it.']],
    ['Visit example.com पर जाएँ।', ['Visit example.com पर जाएँ।']],
  ],
  'CJK full stops': [
    ['今日は晴れです。明日は雨です。', ['今日は晴れです。', '明日は雨です。']],
    ['你好！我很好。谢谢？', ['你好！', '我很好。', '谢谢？']],
    ['这是第一句。这是第二句', ['这是第一句。', '这是第二句']],
    ['価格は3.5ドルです。安いです。', ['価格は3.5ドルです。', '安いです。']],
    ['「こんにちは。」と彼は言った。', ['「こんにちは。」', 'と彼は言った。']],
    ['次です｡終わり｡', ['次です｡', '終わり｡']],
    ['Mixed English. 中文句子。Another one.', ['Mixed English.', '中文句子。', 'Another one.']],
    ['안녕하세요. 반갑습니다.', ['안녕하세요.', '반갑습니다.']],
  ],
  'very long sentences': [
    [LONG_SENTENCE, [LONG_SENTENCE]],
    [
      LONG_CLAUSES,
      LONG_CLAUSES.split(', ').map((clause, i, all) => (i < all.length - 1 ? `${clause},` : clause)),
    ],
    [LONG_CJK, [LONG_CJK]],
    [`Visit ${LONG_URL}. Next.`, [`Visit ${LONG_URL}.`, 'Next.']],
    [`${LONG_WORD}. Next.`, [`${LONG_WORD}.`, 'Next.']],
    [`Dr. ${LONG_WORD} came.`, [`Dr. ${LONG_WORD} came.`]],
  ],
  'clause lengths around 20': [
    ['abcdefghijklmnopqr, next part.', ['abcdefghijklmnopqr, next part.']],
    ['abcdefghijklmnopqrs, next part.', ['abcdefghijklmnopqrs,', 'next part.']],
    ['abcdefghijklmnopqrst, next part.', ['abcdefghijklmnopqrst,', 'next part.']],
    ['one two three four, five six.', ['one two three four, five six.']],
    ['one two three fourx, five six.', ['one two three fourx,', 'five six.']],
    ['one   two three four, five.', ['one two three four, five.']],
    ['one\t\ttwo three fourx, five.', ['one two three fourx,', 'five.']],
    ['  abcdefghijklmnopqrs, next.', ['abcdefghijklmnopqrs,', 'next.']],
    ['abcdefghijklmnopqrs,next part.', ['abcdefghijklmnopqrs,next part.']],
    [
      'First clause is long enough, second clause is also long, third.',
      ['First clause is long enough,', 'second clause is also long,', 'third.'],
    ],
    [
      'Short, then a much longer clause follows here, end.',
      ['Short, then a much longer clause follows here,', 'end.'],
    ],
    ['abcdefghijklmnopqrs,  next', ['abcdefghijklmnopqrs,', 'next']],
    ['A sentence. Abcdefghijklmnopqrs, x.', ['A sentence.', 'Abcdefghijklmnopqrs,', 'x.']],
    [`${'😀'.repeat(19)}, ok.`, [`${'😀'.repeat(19)},`, 'ok.']],
    [`${'😀'.repeat(18)}, ok.`, [`${'😀'.repeat(18)}, ok.`]],
    [`${'क'.repeat(19)}, और।`, [`${'क'.repeat(19)},`, 'और।']],
    [
      'Thank you for calling Acme support, how can I help?',
      ['Thank you for calling Acme support,', 'how can I help?'],
    ],
    ['abcdefghijklmnopqrs,', ['abcdefghijklmnopqrs,']],
    ['هذا نص طويل بما يكفي، وهذا الباقي.', ['هذا نص طويل بما يكفي،', 'وهذا الباقي.']],
  ],
};

const STANDARD_CASES: Readonly<Record<string, readonly Case[]>> = {
  'standard tokenizer': [
    ['Dr. Smith is here.', ['Dr.', 'Smith is here.']],
    ['Pi is 3.14 today. Yes.', ['Pi is 3.14 today.', 'Yes.']],
    ['Wait... what? Really?! Yes.', ['Wait... what?', 'Really?!', 'Yes.']],
    ['U.S.A. is big. It is.', ['U.S.A. is big.', 'It is.']],
    ['Buy etc. 5 apples', ['Buy etc. 5 apples']],
    ['Buy etc. 5', ['Buy etc.', '5']],
    ['Hello\n\nWorld', ['Hello', 'World']],
    ['"Stop." He ran.', ['"Stop."', 'He ran.']],
    ['He said "stop." and left.', ['He said "stop." and left.']],
    ['Steps: 1. Open the app.', ['Steps: 1.', 'Open the app.']],
    ['Visit https://example.com/a?b=1 now.', ['Visit https://example.com/a?', 'b=1 now.']],
    ['Mixed English. 中文句子。Another one.', ['Mixed English.', '中文句子。', 'Another one.']],
    ['今日は晴れです。明日は雨です。', ['今日は晴れです。', '明日は雨です。']],
  ],
  'standard danda': [
    ['मैं ठीक हूँ। आप कैसे हैं?', ['मैं ठीक हूँ।', 'आप कैसे हैं?']],
    ['नमस्ते।आप', ['नमस्ते।', 'आप']],
    ['ठीक॥ अच्छा', ['ठीक॥', 'अच्छा']],
    // The tokenizer alone keeps `।,` together (a comma continues a sentence); the danda rule ends it.
    ['यह है।, और', ['यह है।', ', और']],
    ['আমি ভালো আছি। তুমি?', ['আমি ভালো আছি।', 'তুমি?']],
    ['मी ठीक आहे. तुम्ही कसे आहात?', ['मी ठीक आहे.', 'तुम्ही कसे आहात?']],
  ],
  'standard clauses': [
    [
      'The price is 1,250, and that is a fair price, I think.',
      ['The price is 1,250, and that is a fair price,', 'I think.'],
    ],
    [
      'We sold 12,50,000 units in March, which is a record.',
      ['We sold 12,50,000 units in March,', 'which is a record.'],
    ],
    ['abcdefghijklmnopqrs, next part.', ['abcdefghijklmnopqrs,', 'next part.']],
    ['abcdefghijklmnopqr, next part.', ['abcdefghijklmnopqr, next part.']],
  ],
};

function feedOneUnitAtATime(text: string, kind: Splitter): string[] {
  const splitter = createIncrementalSplitter(kind, NO_LIMIT);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i++) pieces.push(...splitter.push(text[i]));
  pieces.push(...splitter.flush());
  return pieces;
}

function defineTable(kind: Splitter, table: Readonly<Record<string, readonly Case[]>>): void {
  describe.each(Object.entries(table))(`${kind} splitter: %s`, (_category, cases) => {
    it.each(cases)('%j', (text, expected) => {
      expect(splitText(text, kind, NO_LIMIT)).toEqual(expected);
      expect(feedOneUnitAtATime(text, kind)).toEqual(expected);
    });
  });
}

defineTable('router', ROUTER_CASES);
defineTable('standard', STANDARD_CASES);

it('holds at least 150 cases', () => {
  const count = [...Object.values(ROUTER_CASES), ...Object.values(STANDARD_CASES)].reduce(
    (sum, cases) => sum + cases.length,
    0,
  );
  expect(count).toBeGreaterThanOrEqual(150);
});
