/**
 * Common given names of the markets the matcher covers (US, UK, Ireland, Germany, France, Spain, Italy, Portugal, the
 * Netherlands, the Nordics, and names common there from elsewhere), normalized (domain/search-text.ts): what a
 * payment to a person prints after an intermediary (`VENMO *JANE DOE`, `PAYPAL *JOHNSMITH`; transactions/payees.ts).
 * Written by us from general knowledge, not copied from any dataset. Left out on purpose: names that are also common
 * words or places a shop is named after (`will`, `bill`, `art`, `grace`, `rose`, `joy`, `hope`, `max`, `mark`,
 * `frank`, `chase`, `hunter`, `mason`, `carter`, `austin`, `dallas`, `paris`, `victoria`, `charlotte`, `ana`, `ali`),
 * so a shop called "Rose Garden" or "Max Mara" is not taken for a person.
 */
export const GIVEN_NAMES: ReadonlySet<string> = new Set(
  [
    // English-speaking markets.
    'james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony donald steven paul andrew',
    'joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin',
    'scott brandon benjamin samuel gregory alexander patrick jack dennis jerry tyler aaron jose adam nathan henry douglas zachary peter',
    'kyle noah ethan jeremy walter christian keith roger terry harold sean gerald carl arthur lawrence dylan jesse jordan bryan billy',
    'joe bruce gabriel logan albert willie alan juan wayne elijah randy roy vincent ralph eugene russell bobby philip louis johnny',
    'mike chris dave tom jim bob steve tony nick matt dan sam alex ben luke liam oliver harry charlie oscar leo alfie freddie archie theo',
    'jamie callum connor owen rhys ian craig gavin neil stuart graham colin barry darren lee dean gareth martin simon jake josh tim danny',
    'mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley kimberly emily',
    'donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda',
    'pamela emma nicole helen samantha katherine christine debra rachel carolyn janet catherine maria heather diane ruth julie olivia',
    'joyce kelly lauren christina joan evelyn judith megan andrea cheryl hannah jacqueline martha gloria teresa ann sara kathryn janice',
    'abigail alice julia judy sophia denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany marie kayla',
    'alexis lori jane kate katie jenny jen liz beth ellie chloe lucy sophie mia ava amelia isla poppy ella zoe holly gemma claire louise',
    'nicola joanne tracey leanne kirsty fiona siobhan aoife ciara niamh sinead declan ciaran cormac eoin padraig seamus',
    // German-speaking markets.
    'hans klaus jurgen juergen wolfgang andreas stefan markus uwe dieter gunter guenter horst helmut werner manfred bernd ralf sven',
    'tobias jan lukas felix jonas leon maximilian finn elias moritz florian sebastian tobias matthias jens jorg joerg heinz gerhard',
    'sabine ursula petra monika karin renate birgit claudia susanne stefanie katharina anja lena lea johanna greta heike gabriele',
    'ingrid kerstin silke anke annika jana franziska lisa nina',
    // French-speaking markets.
    'jean pierre michel philippe alain nicolas christophe francois laurent frederic stephane olivier julien sebastien thierry guillaume',
    'antoine mathieu maxime hugo lucas gabriel arthur yves jacques bernard didier pascal herve benoit remi',
    'nathalie isabelle sylvie francoise valerie sandrine celine aurelie camille manon emilie anne helene monique brigitte martine',
    'pascale veronique agnes chantal genevieve mathilde margaux juliette elodie',
    // Spanish, Portuguese and Italian.
    'antonio manuel francisco javier carlos miguel rafael pedro alejandro fernando pablo jorge luis sergio alberto diego mario alvaro',
    'giuseppe giovanni marco luca francesco alessandro matteo lorenzo roberto stefano paolo davide simone federico riccardo andrea',
    'joao tiago rui goncalo carmen isabel cristina marta lucia elena pilar paula raquel giulia francesca chiara valentina alessia',
    'martina silvia federica elisa giorgia beatriz ines mariana dolores rocio montserrat',
    // Dutch and Nordic.
    'pieter johannes willem hendrik cornelis gerrit dirk daan thijs ruben lars erik anders johan nils karl mats magnus henrik mikkel',
    'ole soren niels kasper bjorn gustav axel oskar emil sanne anouk fleur astrid kristin sofie freja maja elin linnea mette hanne',
    'ingeborg sigrid solveig',
    // Common in these markets from elsewhere.
    'mohammed muhammad mohamed ahmed omar hassan hussein fatima aisha priya raj rahul amit anil sunil deepak sanjay vijay ravi pooja',
    'neha anjali wei jun hiroshi yuki kenji',
  ]
    .join(' ')
    .split(' ')
    .filter(Boolean),
);
