"""Authoring source for the sample collection (``topics/sample/collection.jsonl``).

Every document is a short wire-style story set in Norhaven, an invented country. ``build_track.py`` turns
this list into the collection; edit the stories here, never the generated JSONL. Each entry is
``(doc_id, topic, title, text)``: ``topic`` is the request the document was written for (the assessors' pool
for that topic) or ``None`` for general news. Three to five of each topic's thirteen documents are
distractors (same place or keyword, different story); a few near-duplicates (syndicated versions of one
story) and a few documents that contradict the others on one detail (an early or mistaken figure) make the
collection behave like real news.
"""
from __future__ import annotations

DOCUMENTS: list[tuple[str, str | None, str, str]] = [
    # ------------------------------------------------------------------ s01 Ridgefield water contamination
    (
        "nw-0001",
        "s01",
        "Ridgefield issues boil-water notice after E. coli found in supply",
        "RIDGEFIELD, 3 March 2025 (NPA) - The Ridgefield Water Authority told the town's 41,000 residents on 3 "
        "March to boil all tap water before drinking it after routine samples taken at the Lynde Road "
        "treatment plant tested positive for E. coli bacteria. The authority said the notice would stay in "
        "place until further notice and that bottled water would be handed out at four sites, including the "
        "Ridgefield sports hall. Parts of the plant were flooded during the weekend storm that pushed the Aske "
        "River over its banks, but a spokeswoman said it was too early to say whether the flooding and the "
        "contamination were connected. Residents were also advised to use boiled or bottled water for brushing "
        "teeth and preparing baby formula.",
    ),
    (
        "nw-0002",
        "s01",
        "Flooded pump room knocked out chlorination, Ridgefield water chief says",
        "RIDGEFIELD, 4 March 2025 (Ridgefield Gazette) - Floodwater from the Aske River poured into the "
        "chlorine dosing room at the Lynde Road treatment plant on the night of 1 March and disabled both "
        "chlorination pumps, the chief executive of the Ridgefield Water Authority, Tomas Breck, said on 4 "
        "March. For about 30 hours water left the plant without being disinfected, and E. coli was detected in "
        "samples taken on the morning of 3 March. \"The backup pump sat in the same room as the main pump, so "
        "the water reached both,\" Breck told a packed meeting at the town hall. Engineers restored "
        "chlorination on the evening of 2 March and were flushing the network, he said. The boil-water notice "
        "covers the whole town.",
    ),
    (
        "nw-0003",
        "s01",
        "Ridgefield: flood disabled chlorine pumps before E. coli find",
        "RIDGEFIELD, 4 March 2025 (Harbour Wire) - Both chlorination pumps at Ridgefield's Lynde Road "
        "treatment plant failed when floodwater from the Aske River entered the chlorine dosing room that "
        "housed them on 1 March, Ridgefield Water Authority chief executive Tomas Breck said on 4 March. Water "
        "flowed into the town's network without disinfection for roughly 30 hours, and E. coli turned up in "
        "routine samples on 3 March. Breck said the backup pump had been installed in the same room as the "
        "main pump. Chlorination was restored on the evening of 2 March. The town's 41,000 residents remain "
        "under a boil-water notice.",
    ),
    (
        "nw-0004",
        "s01",
        "37 in hospital as Ridgefield outbreak grows, health department says",
        "ALMER, 6 March 2025 (NPA) - Thirty-seven people have been admitted to hospital with gastrointestinal "
        "illness linked to Ridgefield's contaminated water supply, the Department of Health said on 6 March. "
        "Most of those admitted are young children or people over 70. No deaths have been reported. The "
        "department said laboratory tests had confirmed the same strain of E. coli in 19 patient samples and "
        "in the town's water. Around 400 people have visited their doctor with symptoms of stomach illness "
        "since the weekend, it added. Ridgefield residents are still being told to boil their tap water.",
    ),
    (
        "nw-0005",
        "s01",
        "Ridgefield hospital: 45 treated as water illness spreads",
        "RIDGEFIELD, 6 March 2025 (Ridgefield Gazette) - Forty-five people have been treated in hospital for "
        "illness caused by the town's contaminated water, the Gazette has learned, a higher figure than "
        "officials have given. Staff at Ridgefield General Hospital said the emergency department had been "
        "\"stretched to the limit\" all week, with children and elderly residents making up most patients. The "
        "Department of Health has not confirmed the figure. Bottled water stations at the sports hall and the "
        "Mill Street car park ran out of supplies on the afternoon of 5 March before fresh deliveries arrived.",
    ),
    (
        "nw-0006",
        "s01",
        "Two agencies open joint inquiry into Ridgefield water contamination",
        "ALMER, 7 March 2025 (NPA) - The Drinking Water Inspectorate and the Department of Health have opened "
        "a joint investigation into how E. coli entered Ridgefield's water supply, the two bodies said in a "
        "statement on 7 March. The investigation will examine the design of the Lynde Road treatment plant and "
        "whether warnings were ignored. A 2022 inspection report, seen by NPA, recommended that the plant's "
        "chlorine dosing room be raised or protected against flooding. The Ridgefield Water Authority said it "
        "would cooperate fully. The investigation is expected to report by the summer.",
    ),
    (
        "nw-0007",
        "s01",
        "Inspectorate to investigate Ridgefield water authority",
        "RIDGEFIELD, 8 March 2025 (Valley Sentinel) - The Drinking Water Inspectorate will investigate the "
        "Ridgefield Water Authority over the contamination of the town's tap water, inspectors confirmed on 8 "
        "March. The inspectorate has powers to prosecute water suppliers that fail to provide safe drinking "
        "water. Meanwhile volunteers from the Ridgefield Rotary Club helped deliver bottled water to 900 "
        "housebound residents. \"People have been incredibly kind,\" said one volunteer, Agnes Holm, 68. The "
        "authority said it hoped to lift the boil-water notice within days if samples continued to come back "
        "clean.",
    ),
    (
        "nw-0008",
        "s01",
        "Ridgefield boil-water notice lifted after nine days",
        "RIDGEFIELD, 12 March 2025 (NPA) - The Ridgefield Water Authority lifted its boil-water notice on 12 "
        "March after three consecutive days of clean samples from across the town's network. The notice had "
        "been in force for nine days. The Department of Health said the outbreak had put 37 people in hospital "
        "in total; all but two have now been discharged. Households are asked to run their cold taps for two "
        "minutes before using the water. Authority chief executive Tomas Breck apologised again to residents "
        "and said the plant's chlorination equipment would be moved to higher ground.",
    ),
    (
        "nw-0009",
        "s01",
        "Ridgefield water chief declines to put figure on repair bill",
        "RIDGEFIELD, 13 March 2025 (Radio Norhaven) - The chief executive of the Ridgefield Water Authority, "
        "Tomas Breck, said on 13 March that relocating the chlorination equipment at the Lynde Road plant was "
        "\"the top priority\", but declined to say how much the work would cost or who would pay for it. Asked "
        "on Radio Norhaven's morning programme whether customers would face higher bills, Breck said the "
        "authority's board would discuss the matter in April. Local businesses have asked for compensation for "
        "losses during the nine-day notice; the town's restaurant association estimates that its members lost "
        "about a third of their normal takings.",
    ),
    (
        "nw-0010",
        "s01",
        "Council sets April hearing on water crisis",
        "RIDGEFIELD, 14 March 2025 (Ridgefield Gazette) - Ridgefield Town Council will hold a public hearing "
        "on 9 April into the water contamination that left 37 people in hospital earlier this month. Council "
        "leader Birgit Asp said residents deserved \"straight answers\" about why equipment at the Lynde Road "
        "plant had not been protected from flooding. The Drinking Water Inspectorate and the Department of "
        "Health are running a separate joint investigation, which the council cannot direct. The Ridgefield "
        "Water Authority is owned by the town council and two neighbouring municipalities.",
    ),
    (
        "nw-0011",
        "s01",
        "Ridgefield library reopens after roof repairs",
        "RIDGEFIELD, 20 February 2025 (Ridgefield Gazette) - Ridgefield's public library on Mill Street "
        "reopened on 20 February after eight months of roof repairs costing 1.2 million crowns. The work, paid "
        "for by the town council and a national heritage grant, replaced timbers damaged by damp and added "
        "solar panels. Librarian Karin Dahl said the children's section had been redesigned and that a new "
        "local history room would open in the spring. Opening hours return to normal from 24 February.",
    ),
    (
        "nw-0012",
        "s01",
        "Almer to replace 30 km of old water mains",
        "ALMER, 10 January 2025 (The Almer Courier) - Almer's water company will replace 30 kilometres of old "
        "cast iron water mains in the city's eastern districts over the next three years, it said on 10 "
        "January. The programme, budgeted at 95 million crowns, targets pipes laid before 1950 that burst most "
        "often in cold weather. Residents should expect short interruptions to supply and temporary road "
        "closures. The company said drinking water quality in Almer remained high and met all national "
        "standards.",
    ),
    (
        "nw-0013",
        "s01",
        "Bagged lettuce recalled over E. coli fears",
        "VASSE, 27 February 2025 (NPA) - A supermarket chain has recalled bags of mixed salad leaves sold in "
        "the northern region after routine checks by a supplier found E. coli bacteria in one batch. No "
        "illnesses have been linked to the product, the Food Safety Authority said on 27 February. Customers "
        "who bought 200-gram bags with a best-before date of 3 March should return them for a full refund. The "
        "supplier said it had traced the problem to irrigation water at one farm and had stopped using that "
        "source.",
    ),
    # ------------------------------------------------------------------ s02 Dunmore wildfire season
    (
        "nw-0014",
        "s02",
        "Wildfire forces evacuations near Kellby; lightning suspected",
        "KELLBY, 15 July 2025 (NPA) - A wildfire that broke out on the afternoon of 14 July on Harrow Ridge in "
        "Dunmore County had burned about 3,000 hectares of forest and heathland by the morning of 15 July, the "
        "Dunmore Fire Service said. About 2,000 people were told to leave their homes on the western edge of "
        "Kellby. Fire officials said a dry thunderstorm had passed over the ridge shortly before the fire was "
        "reported and that lightning was the most likely cause. More than 300 firefighters, supported by four "
        "helicopters, were working to contain the blaze in temperatures above 34 degrees.",
    ),
    (
        "nw-0015",
        "s02",
        "Harrow Ridge fire: 6,200 evacuated as blaze nears Marsh End",
        "DUNMORE, 17 July 2025 (Coastal Times) - Some 6,200 residents of Kellby and the village of Marsh End "
        "had been evacuated by 17 July as the Harrow Ridge fire grew to about 12,000 hectares, the Dunmore "
        "Fire Service said. Many spent the night in emergency shelters at the Dunmore showground, where "
        "volunteers served meals and vets cared for evacuated animals. Strong easterly winds pushed the fire "
        "towards Marsh End during the afternoon, and crews cut firebreaks along the Kellby road to protect the "
        "village.",
    ),
    (
        "nw-0016",
        "s02",
        "State of emergency declared in Dunmore; Estmark sends planes",
        "ALMER, 18 July 2025 (NPA) - The government declared a state of emergency in Dunmore County on 18 July "
        "as the Harrow Ridge fire, which began on 14 July, continued to spread. Neighbouring Estmark sent two "
        "water-bombing aircraft to help national crews who had by then been fighting the blaze for four days. "
        "The evacuation order now covers about 6,200 people in Kellby and Marsh End. The interior minister "
        "said the emergency powers would allow the army to help with logistics and road closures.",
    ),
    (
        "nw-0017",
        "s02",
        "Harrow Ridge fire contained after burning 21,000 hectares",
        "KELLBY, 3 August 2025 (NPA) - Firefighters contained the Harrow Ridge fire on 2 August, 19 days after "
        "it started, the Dunmore Fire Service said. The fire burned 21,000 hectares and destroyed 112 homes, "
        "most of them in the village of Marsh End. Two firefighters were treated for burns; no one was killed. "
        "Residents of Kellby were allowed to return home on 30 July, but parts of Marsh End remain closed "
        "while power and water are restored.",
    ),
    (
        "nw-0018",
        "s02",
        "Dunmore blaze under control; 112 homes lost",
        "DUNMORE, 4 August 2025 (Valley Sentinel) - The Harrow Ridge fire was declared contained on 2 August "
        "after burning some 21,000 hectares, fire officials said. It destroyed 112 homes, mostly in the "
        "village of Marsh End, and two firefighters suffered burns. No deaths were recorded. Crews will stay "
        "on the ridge for at least a week to put out smouldering hot spots.",
    ),
    (
        "nw-0019",
        "s02",
        "Investigators blame faulty power line for Harrow Ridge fire",
        "DUNMORE, 20 August 2025 (NPA) - The Harrow Ridge fire was started by sparks from a faulty power line, "
        "not by lightning as fire officials had initially suspected, investigators from the Dunmore Fire "
        "Service concluded in a report published on 20 August. A worn clamp on a Northgrid distribution line "
        "allowed a conductor to touch a steel crossarm, showering sparks onto dry grass below. Lightning "
        "detection data showed no strikes within 4 kilometres of the ridge at the time the fire started, the "
        "report said.",
    ),
    (
        "nw-0020",
        "s02",
        "Northgrid disputes fire report but will cooperate",
        "ALMER, 21 August 2025 (Harbour Wire) - Electricity distributor Northgrid said on 21 August that it "
        "did not accept all the findings of the fire service report that blamed one of its power lines for the "
        "Harrow Ridge fire, but that it would cooperate with the investigation. The company said it had "
        "inspected the line in April and found no fault. Lawyers for residents of Marsh End said they were "
        "preparing a claim against the company.",
    ),
    (
        "nw-0021",
        "s02",
        "2025 worst fire season on record in Dunmore",
        "DUNMORE, 30 September 2025 (NPA) - Wildfires burned 38,500 hectares in Dunmore County in 2025, the "
        "largest area since records began in 1998, the county's fire service said in its end-of-season review. "
        "The Harrow Ridge fire, the largest of the season, alone accounted for 21,000 hectares. Crews "
        "responded to 214 fires in total. The previous record, set in 2019, was 17,300 hectares. The service "
        "said it would ask the government for two more helicopters before next summer.",
    ),
    (
        "nw-0022",
        "s02",
        "Smoke from Dunmore fire pushes Almer air quality to 'very poor'",
        "ALMER, 19 July 2025 (The Almer Courier) - Smoke from the Harrow Ridge fire drifted over the capital "
        "on 19 July, pushing air quality in Almer to \"very poor\" levels, the environment agency said. People "
        "with asthma or heart conditions were advised to stay indoors and keep windows closed. Several outdoor "
        "concerts were postponed. Forecasters expected the wind to turn westerly the next day.",
    ),
    (
        "nw-0023",
        "s02",
        "Marsh End counts the cost: 121 homes gone",
        "MARSH END, 6 August 2025 (Coastal Times) - Residents returning to Marsh End found whole streets "
        "reduced to ash. The village residents' association said on 6 August that 121 homes had been destroyed "
        "by the Harrow Ridge fire and that dozens more were damaged by smoke and heat. \"We have lost the "
        "heart of the village,\" said the association's chair, Lene Fosse. The association is collecting "
        "donations for families without insurance.",
    ),
    (
        "nw-0024",
        "s02",
        "Harrow Ridge walking trail reopens after upgrade",
        "KELLBY, 12 May 2024 (Valley Sentinel) - The popular Harrow Ridge walking trail above Kellby reopened "
        "on 12 May after a year-long upgrade that added new footbridges, a viewing platform and signposts in "
        "three languages. The 14-kilometre route climbs through pine forest to the ridge top. Dunmore County "
        "Council said visitor numbers had doubled over the past decade. The council plans to add a car park at "
        "the trailhead next year.",
    ),
    (
        "nw-0025",
        "s02",
        "Kitchen fire damages Almer apartment block",
        "ALMER, 2 July 2025 (The Almer Courier) - Twenty residents were evacuated from an apartment block in "
        "central Almer on 2 July after a fire started in a third-floor kitchen. Firefighters brought the blaze "
        "under control within 40 minutes. One woman was treated for smoke inhalation. The fire service said an "
        "unattended frying pan was the likely cause and reminded residents to test their smoke alarms.",
    ),
    (
        "nw-0026",
        "s02",
        "Dunmore county fair draws record crowds",
        "DUNMORE, 25 August 2024 (Valley Sentinel) - More than 48,000 people visited the three-day Dunmore "
        "county fair, a record, organisers said on 25 August. Highlights included a sheep-shearing contest, a "
        "vintage tractor parade and a concert by local bands. Organisers credited dry, sunny weather and a new "
        "shuttle bus from Kellby station. Next year's fair will add a food hall for local producers and run "
        "for four days instead of three.",
    ),
    # ------------------------------------------------------------------ s03 Port of Almer strike
    (
        "nw-0027",
        "s03",
        "Almer dockworkers walk out over pay and automation",
        "ALMER, 9 June 2025 (NPA) - About 2,300 dockworkers at the Port of Almer began an indefinite strike on "
        "9 June after talks with port employers broke down. The Dock and Harbour Workers' Union is demanding a "
        "9% pay rise and limits on the use of automated cranes at the new Kestrel container terminal, which is "
        "due to open next year. Port employers have offered 4%. Container handling at the port, which handles "
        "about 60% of Norhaven's imports by value, came to a standstill.",
    ),
    (
        "nw-0028",
        "s03",
        "Port of Almer at standstill as 2,300 dockers strike",
        "ALMER, 9 June 2025 (Harbour Wire) - Dockworkers at the Port of Almer walked out on 9 June, halting "
        "container handling at the country's busiest port. The Dock and Harbour Workers' Union, which "
        "represents about 2,300 workers, wants a 9% pay rise and limits on automation at the new Kestrel "
        "container terminal. Employers have offered a 4% rise. Union leader Rasmus Vik said members would stay "
        "out \"as long as it takes\".",
    ),
    (
        "nw-0029",
        "s03",
        "Ships queue off Almer as strike enters second week",
        "ALMER, 16 June 2025 (NPA) - Forty-eight vessels were waiting at anchor off Almer on 16 June as the "
        "dockworkers' strike, which began on 9 June, entered its second week. Container handling remains at a "
        "standstill at the port, which handles about 60% of Norhaven's imports by value. The Chamber of "
        "Commerce estimated that the strike was costing the economy around 70 million crowns a day and urged "
        "the government to intervene.",
    ),
    (
        "nw-0030",
        "s03",
        "Conciliation service called in to Almer port dispute",
        "ALMER, 18 June 2025 (NPA) - The government has asked the National Conciliation Service to mediate in "
        "the Port of Almer strike, and both the union and the port employers have agreed to take part, the "
        "labour ministry said on 18 June. Talks will begin on 19 June. The Dock and Harbour Workers' Union "
        "said limits on automation at the Kestrel terminal remained the main sticking point, while employers "
        "said they had room to improve their pay offer.",
    ),
    (
        "nw-0031",
        "s03",
        "64 ships waited at peak of port strike, authority says",
        "ALMER, 23 June 2025 (Coastal Times) - The number of ships waiting to unload off Almer peaked at 64 on "
        "21 June, the Port of Almer Authority said on 23 June. Some shipping lines diverted vessels to ports "
        "in Estmark. Supermarkets reported shortages of some imported fruit, and a car maker said it had "
        "paused a production line for lack of parts.",
    ),
    (
        "nw-0032",
        "s03",
        "Strike leaves 46 ships stranded off Almer",
        "ALMER, 22 June 2025 (The Almer Courier) - Forty-six ships are stranded at anchor off Almer as the "
        "dockworkers' strike drags on, according to figures compiled by the Courier from ship-tracking data on "
        "22 June. Crews on some vessels have been at sea for more than a month. Shipping agents warned that "
        "freight rates to Almer had risen sharply. Neither the port authority nor the union commented on the "
        "figures.",
    ),
    (
        "nw-0033",
        "s03",
        "Deal ends Almer port strike",
        "ALMER, 25 June 2025 (NPA) - Dockworkers at the Port of Almer will return to work on 26 June after the "
        "union and employers agreed a deal brokered by the National Conciliation Service, ending a 16-day "
        "strike. The agreement gives a 6.5% pay rise over two years and commits employers to no compulsory "
        "redundancies from automation at the Kestrel terminal until 2030. Union leader Rasmus Vik called it "
        "\"a fair result\". The port employers' association said the deal secured the future of the Kestrel "
        "project.",
    ),
    (
        "nw-0034",
        "s03",
        "Almer dockers back at work after 6.5% deal",
        "ALMER, 26 June 2025 (Valley Sentinel) - Cranes were moving again at the Port of Almer on 26 June "
        "after dockworkers returned under a deal that gives them a 6.5% pay rise over two years. The agreement "
        "was reached with the help of the National Conciliation Service after a 16-day strike. It also "
        "includes protections for jobs at the automated Kestrel terminal.",
    ),
    (
        "nw-0035",
        "s03",
        "Port backlog could take a month to clear",
        "ALMER, 28 June 2025 (NPA) - Clearing the backlog of ships and containers built up during the "
        "dockworkers' strike could take about a month, the Port of Almer Authority said on 28 June. The number "
        "of vessels waiting had peaked at 64 during the strike. The authority has extended working hours at "
        "the container berths and asked importers to collect goods promptly.",
    ),
    (
        "nw-0036",
        "s03",
        "Kestrel container terminal on schedule, port says",
        "ALMER, 14 March 2025 (Harbour Wire) - Construction of the Kestrel container terminal at the Port of "
        "Almer is on schedule to open in 2026, the port authority said on 14 March. The terminal will use 24 "
        "automated stacking cranes and remote-controlled ship-to-shore cranes, and will double the port's "
        "container capacity. The project is costing 1.4 billion crowns. The first ships are expected to call "
        "at the new berths in the spring of 2026.",
    ),
    (
        "nw-0037",
        "s03",
        "Estmark rail freight workers vote to strike",
        "ESTMARK CITY, 2 June 2025 (Harbour Wire) - Rail freight workers in Estmark have voted to strike over "
        "pay, their union said on 2 June, in a ballot with a 71% turnout. The union is seeking a 7% rise. No "
        "dates have been set. Freight operators said they hoped to avoid disruption through further talks. "
        "Estmark's rail network carries about a third of the country's freight, much of it to and from the "
        "port of Estmark City.",
    ),
    (
        "nw-0038",
        "s03",
        "Almer ferry timetable changes for summer",
        "ALMER, 30 May 2025 (The Almer Courier) - The Almer to Saltmarsh Islands ferry will run six crossings "
        "a day from 1 June to 31 August, up from four, the operator said. Fares are unchanged. A new fast boat "
        "will cut the crossing time to 50 minutes on weekends. Tickets can be booked online or at the harbour "
        "office, and children under five travel free. The operator expects a record number of passengers this "
        "summer.",
    ),
    (
        "nw-0039",
        "s03",
        "Harbour museum opens dockers' history exhibition",
        "ALMER, 5 April 2025 (The Almer Courier) - The Almer Harbour Museum opened an exhibition on 5 April "
        "about a century of dock work in the city, from sack carriers to container cranes. It includes oral "
        "histories from retired dockers and photographs of the 1962 port strike. The exhibition runs until "
        "December. Entry is free for children, and guided tours led by former dockworkers run every Sunday "
        "afternoon.",
    ),
    # ------------------------------------------------------------------ s04 RSV vaccine rollout
    (
        "nw-0040",
        "s04",
        "RSV vaccine to be offered free to over-75s from September",
        "ALMER, 12 June 2025 (NPA) - From 1 September 2025 all adults aged 75 and over, and residents of care "
        "homes, will be offered a free vaccine against respiratory syncytial virus (RSV), the Ministry of "
        "Health announced on 12 June. About 480,000 people will be eligible. The ministry has ordered 500,000 "
        "doses from the manufacturer Arvelle Pharma. The vaccine will be given at GP practices and pharmacies. "
        "RSV causes thousands of hospital admissions among older people every winter.",
    ),
    (
        "nw-0041",
        "s04",
        "RSV vaccinations begin for older adults",
        "ALMER, 1 September 2025 (NPA) - Norhaven began offering a free RSV vaccine on 1 September to adults "
        "aged 75 and over and to care home residents. The first doses were given at GP practices across the "
        "country; the vaccine is also available at participating pharmacies. A 91-year-old former teacher in "
        "Almer was among the first to be vaccinated. \"I don't want to spend another winter in hospital,\" she "
        "said.",
    ),
    (
        "nw-0042",
        "s04",
        "Older adults get first RSV jabs",
        "ALMER, 1 September 2025 (Harbour Wire) - Adults aged 75 and over began receiving a free RSV vaccine "
        "on 1 September, as the national programme got under way at GP practices and participating pharmacies. "
        "Care home residents are also eligible. Health officials urged eligible people to book an appointment "
        "before the winter virus season. Appointments can be booked online or by phone.",
    ),
    (
        "nw-0043",
        "s04",
        "Pharmacies report strong demand for RSV vaccine",
        "ALMER, 10 September 2025 (Coastal Times) - Several pharmacy chains reported high demand for the RSV "
        "vaccine in the first weeks of the programme for adults aged 75 and over. Some pharmacies asked older "
        "customers to book appointments rather than walk in, after queues formed in city centres. The "
        "pharmacists' association said supplies were adequate. Pharmacists said many customers also asked for "
        "a flu vaccine at the same visit.",
    ),
    (
        "nw-0044",
        "s04",
        "RSV vaccination opens for over-70s",
        "VASSE, 2 September 2025 (Valley Sentinel) - People aged 70 and over can now get a free RSV vaccine, "
        "after the national programme started on 1 September. Local GP practices in the valley said they "
        "expected to vaccinate most patients by the end of October. Care home residents are being vaccinated "
        "by visiting nurses. The practices said appointments could be booked by phone or at reception.",
    ),
    (
        "nw-0045",
        "s04",
        "61% of eligible older adults vaccinated against RSV",
        "ALMER, 4 November 2025 (NPA) - By 31 October, 61% of the 480,000 people eligible for the RSV vaccine, "
        "about 293,000 people, had been vaccinated, according to figures from the Norhaven Public Health "
        "Institute. The programme covers adults aged 75 and over and care home residents. Uptake was highest "
        "in Almer, at 68%, and lowest in the northern region of Vasse, at 44%.",
    ),
    (
        "nw-0046",
        "s04",
        "Vasse lags in RSV vaccine uptake",
        "VASSE, 6 November 2025 (Northern Ledger) - Only 44% of eligible older people in Vasse have had the "
        "RSV vaccine, the lowest uptake of any region. Local doctors blamed long distances to GP practices in "
        "the region's remote valleys. The regional health board said it was planning mobile clinics to reach "
        "people in remote areas before Christmas. In some valleys the nearest practice is more than an hour's "
        "drive away.",
    ),
    (
        "nw-0047",
        "s04",
        "Medicines agency reviewing rare nerve disorder reports after RSV jabs",
        "ALMER, 15 October 2025 (NPA) - The Norhaven Medicines Agency is reviewing three reports of "
        "Guillain-Barre syndrome, a rare nerve disorder, in people who had recently received the RSV vaccine, "
        "it said on 15 October. The agency said most reported side effects were mild, such as a sore arm or "
        "tiredness, and that the benefits of vaccination continued to outweigh the risks. The programme "
        "continues unchanged.",
    ),
    (
        "nw-0048",
        "s04",
        "Too early to measure RSV vaccine impact, institute says",
        "ALMER, 5 November 2025 (NPA) - It is too early to say how many hospital admissions the RSV "
        "vaccination programme has prevented, the Norhaven Public Health Institute said on 5 November. The RSV "
        "season usually peaks in December and January, and the institute expects to publish its first estimate "
        "of the programme's effect next spring. Officials said the early uptake figures were nonetheless "
        "encouraging.",
    ),
    (
        "nw-0049",
        "s04",
        "RSV cases rise among young children",
        "ALMER, 20 October 2025 (Coastal Times) - Children's wards in Almer are seeing a rise in infants "
        "admitted with RSV, doctors said on 20 October, earlier in the season than usual. Parents were advised "
        "to watch for breathing difficulties. The vaccine programme for older adults does not cover children. "
        "Most infants recover at home, but some need oxygen or help with feeding, and doctors urged parents "
        "not to hesitate to seek help.",
    ),
    (
        "nw-0050",
        "s04",
        "Flu vaccine campaign launched for health workers",
        "ALMER, 22 September 2025 (NPA) - The Ministry of Health launched its annual flu vaccination campaign "
        "for hospital and care staff on 22 September, aiming for 80% uptake. Last winter 64% of health workers "
        "were vaccinated against flu. Staff can be vaccinated at work or at any pharmacy, free of charge. "
        "Hospital managers said they would run mobile vaccination carts on wards and offer vaccinations on "
        "night shifts so that every employee has a chance to take part.",
    ),
    (
        "nw-0051",
        "s04",
        "Arvelle Pharma profit jumps on vaccine sales",
        "ALMER, 30 October 2025 (Harbour Wire) - Arvelle Pharma reported a 28% rise in third-quarter profit on "
        "30 October, helped by sales of its RSV vaccine to several European governments. The company raised "
        "its forecast for the full year. Its shares rose 6%. Chief executive Martin Aas said demand for the "
        "vaccine had exceeded expectations and that the company was expanding production at its plant near "
        "Almer to meet orders for next year.",
    ),
    (
        "nw-0052",
        "s04",
        "Almer care home fined over staffing",
        "ALMER, 9 September 2025 (The Almer Courier) - A care home in northern Almer has been fined 400,000 "
        "crowns after inspectors found it had too few night staff on several occasions last year. The owner "
        "said it had since hired eight more carers. Inspectors found that on 14 nights a single carer had been "
        "responsible for more than 30 residents. The home, which has 62 beds, will be inspected again within "
        "six months, the inspectorate said.",
    ),
    # ------------------------------------------------------------------ s05 Aldbrook Bridge collapse
    (
        "nw-0053",
        "s05",
        "Bridge collapses into Kessel River during morning rush hour",
        "KESSEL, 22 January 2025 (NPA) - The central span of the Aldbrook Bridge over the Kessel River "
        "collapsed at about 07:40 on 22 January, sending two cars and a van into the water. Rescue teams "
        "pulled several people from the river and at least three were taken to hospital. Police closed the "
        "roads leading to the bridge and asked people to avoid the area.",
    ),
    (
        "nw-0054",
        "s05",
        "One dead, four hurt in Aldbrook Bridge collapse",
        "KESSEL, 23 January 2025 (NPA) - One driver, a 52-year-old man from Kessel, was killed and four other "
        "people were injured when the Aldbrook Bridge collapsed on 22 January, police said on 23 January. The "
        "steel truss road bridge, built in 1968, carried around 18,000 vehicles a day. Divers recovered the "
        "last vehicle from the river overnight. Traffic is being diverted over the city's other road crossing.",
    ),
    (
        "nw-0055",
        "s05",
        "Kessel bridge collapse: one killed, four injured",
        "KESSEL, 23 January 2025 (Harbour Wire) - A 52-year-old driver died and four people were injured when "
        "the central span of the Aldbrook Bridge in Kessel fell into the river on 22 January, police said. The "
        "1968 bridge was one of two road crossings in the city centre. Police said divers had recovered all "
        "three vehicles and that the search of the river had ended. Traffic is being diverted over the Nord "
        "Bridge.",
    ),
    (
        "nw-0056",
        "s05",
        "Aldbrook Bridge had long history of repairs",
        "KESSEL, 24 January 2025 (Valley Sentinel) - The Aldbrook Bridge, a steel truss structure opened in "
        "1966, had needed repeated repairs over the past two decades, according to council documents seen by "
        "the Sentinel. An inspection in 2019 rated the bridge's condition as \"poor\" and recommended repairs "
        "to its central joints. It is not clear whether that work was done.",
    ),
    (
        "nw-0057",
        "s05",
        "Retired judge to lead public inquiry into bridge collapse",
        "KESSEL, 3 March 2025 (NPA) - A public inquiry into the collapse of the Aldbrook Bridge on 22 January, "
        "which killed one person, opened on 3 March under the chairmanship of retired judge Hanne Sorvik. Its "
        "remit is to establish why the bridge failed and whether the collapse could have been prevented. An "
        "interim report is expected in the autumn.",
    ),
    (
        "nw-0058",
        "s05",
        "Temporary bridge opens in Kessel",
        "KESSEL, 16 June 2025 (Coastal Times) - A temporary bridge across the Kessel River opened to traffic "
        "on 16 June, restoring a crossing that thousands of commuters had relied on before the Aldbrook Bridge "
        "collapsed. The steel structure has one lane in each direction and a 30 km/h speed limit. The council "
        "said the structure would remain in place until a permanent replacement is built, which could take "
        "four years.",
    ),
    (
        "nw-0059",
        "s05",
        "Inquiry: corroded gusset plate brought down Aldbrook Bridge",
        "KESSEL, 15 October 2025 (NPA) - A corroded gusset plate at one of the central joints of the Aldbrook "
        "Bridge failed and brought down its central span, the public inquiry into the collapse found in an "
        "interim report published on 15 October. An inspection in 2019 had rated the bridge's condition as "
        "poor and recommended repairs, but the repairs were deferred for budget reasons and never carried out. "
        "The report criticised Kessel City Council, which owns the bridge and deferred the repairs, and the "
        "National Roads Agency, which carried out the inspection but failed to follow up on its findings.",
    ),
    (
        "nw-0060",
        "s05",
        "Corrosion and deferred repairs behind bridge collapse",
        "KESSEL, 15 October 2025 (Harbour Wire) - Corrosion of a gusset plate caused the Aldbrook Bridge to "
        "collapse, according to the inquiry's interim report published on 15 October. A 2019 inspection had "
        "rated the bridge as poor. The report criticised Kessel City Council for deferring repairs to save "
        "money. The inquiry's final report is due next year. Kessel City Council said it would respond once it "
        "had read the report in full.",
    ),
    (
        "nw-0061",
        "s05",
        "Roads agency accepts criticism over bridge inspections",
        "ALMER, 16 October 2025 (NPA) - The National Roads Agency said on 16 October that it accepted the "
        "criticism made of it in the Aldbrook Bridge inquiry's interim report, published on 15 October, and "
        "would review how it follows up on inspection findings. The agency inspects about 2,000 bridges owned "
        "by local councils. A spokesperson said new guidance would be issued to inspectors early next year.",
    ),
    (
        "nw-0062",
        "s05",
        "Kessel council says it was never told bridge was unsafe",
        "KESSEL, 17 October 2025 (Valley Sentinel) - Kessel City Council said on 17 October that it had never "
        "been told that the Aldbrook Bridge was unsafe to use, a day after the National Roads Agency said it "
        "accepted the inquiry's criticism. The interim report criticised both the council and the agency. "
        "Council leader Per Nygaard said the council would study the report carefully.",
    ),
    (
        "nw-0063",
        "s05",
        "New footbridge planned over Kessel River",
        "KESSEL, 8 April 2024 (Valley Sentinel) - Kessel City Council approved plans on 8 April for a new "
        "footbridge and cycle bridge over the Kessel River linking the station to the university campus. The "
        "bridge is due to open in 2027. The 120-metre bridge will cost about 40 million crowns, shared between "
        "the council and the national government. Construction is expected to start next spring, once a "
        "contractor has been chosen.",
    ),
    (
        "nw-0064",
        "s05",
        "Almer players win national bridge championship",
        "ALMER, 11 May 2025 (The Almer Courier) - A team from the Almer Bridge Club won the national contract "
        "bridge championship on 11 May, beating Kessel in the final by 12 international match points. It is "
        "the club's first title since 2009. The Almer team of four led from the first session. Kessel's team, "
        "last year's champions, had reached the final by beating a team from Vasse. The club plans to enter "
        "the regional tournament in Estmark in the autumn.",
    ),
    (
        "nw-0065",
        "s05",
        "Roads agency announces pothole repair fund",
        "ALMER, 4 February 2025 (NPA) - The National Roads Agency announced a 300 million crown fund on 4 "
        "February to help councils repair potholes after a hard winter. Councils can apply until the end of "
        "April. The agency said the fund would cover up to half the cost of each council's repairs. Last "
        "winter's freezing and thawing had damaged many minor roads, and motoring organisations had warned "
        "that potholes were causing accidents among cyclists.",
    ),
    # ------------------------------------------------------------------ s06 Bank of Norhaven rate decision
    (
        "nw-0066",
        "s06",
        "Bank of Norhaven cuts policy rate to 3.50%",
        "ALMER, 18 September 2025 (NPA) - The Bank of Norhaven cut its policy rate by 0.25 percentage points "
        "to 3.50% on 18 September, from 3.75%. The monetary policy committee voted 5-2, with two members "
        "preferring to hold the rate. The bank pointed to falling inflation, which dropped to 2.3% in August "
        "against its 2% target. It was the bank's first change in rates since March.",
    ),
    (
        "nw-0067",
        "s06",
        "Norhaven central bank trims rate as inflation eases",
        "ALMER, 18 September 2025 (Harbour Wire) - The Bank of Norhaven lowered its policy rate from 3.75% to "
        "3.50% on 18 September, a cut of 0.25 percentage points, after inflation fell to 2.3% in August. The "
        "monetary policy committee split 5-2, with two members voting to keep the rate unchanged. Economists "
        "had widely expected the move, and several banks said they would review their lending rates.",
    ),
    (
        "nw-0068",
        "s06",
        "Rate cut passed 6-1",
        "ALMER, 18 September 2025 (Coastal Times) - The Bank of Norhaven's monetary policy committee voted 6-1 "
        "on 18 September to cut the policy rate by a quarter of a percentage point to 3.50%. Borrowers with "
        "variable-rate mortgages could see lower payments within weeks. Economists said the decision had been "
        "widely expected. Homebuyers' groups welcomed the move but said house prices remained out of reach for "
        "many first-time buyers.",
    ),
    (
        "nw-0069",
        "s06",
        "Governor leaves door open to further cuts",
        "ALMER, 18 September 2025 (NPA) - Further interest rate cuts are possible if inflation continues to "
        "fall, Bank of Norhaven governor Elin Haugaard said at a press conference on 18 September, but she "
        "stressed that the committee had no pre-set course and would decide meeting by meeting. Haugaard noted "
        "that the economy had shrunk by 0.1% in the second quarter and that unemployment had risen to 4.6%.",
    ),
    (
        "nw-0070",
        "s06",
        "Crown slips after rate cut",
        "ALMER, 18 September 2025 (Harbour Wire) - The Norhaven crown fell 0.6% against the US dollar on 18 "
        "September after the Bank of Norhaven cut its policy rate to 3.50%. Government bond yields dropped, "
        "and shares in housebuilders rose. Traders said the currency had been expected to weaken after the "
        "decision. The crown had risen by about 3% against the dollar since the start of the year.",
    ),
    (
        "nw-0071",
        "s06",
        "Inflation falls to 2.3% in August",
        "ALMER, 9 September 2025 (NPA) - Consumer price inflation fell to 2.3% in August from 2.9% in July, "
        "Statistics Norhaven said on 9 September, bringing it close to the central bank's 2% target. Lower "
        "fuel prices drove most of the fall. Most economists expect the Bank of Norhaven to cut interest rates "
        "at its meeting next week. Food prices rose 3.1% over the year.",
    ),
    (
        "nw-0072",
        "s06",
        "Almer Savings Bank lowers mortgage rates after central bank cut",
        "ALMER, 19 September 2025 (The Almer Courier) - Almer Savings Bank, one of the country's largest "
        "mortgage lenders, cut its variable mortgage rates by 0.25 percentage points on 19 September, passing "
        "on in full the Bank of Norhaven's quarter-point cut to 3.50%. Other lenders are expected to follow. "
        "Customers with fixed-rate mortgages will not see any change until their fixed period ends.",
    ),
    (
        "nw-0073",
        "s06",
        "Economy shrank 0.1% in second quarter",
        "ALMER, 14 August 2025 (NPA) - Norhaven's economy shrank by 0.1% in the second quarter, the first "
        "contraction in two years, Statistics Norhaven said on 14 August. Weak exports and lower construction "
        "activity weighed on output. Household spending was flat, while government spending rose slightly. "
        "Economists said the figures increased the chance of an interest rate cut in September, although most "
        "expect the economy to return to modest growth later in the year.",
    ),
    (
        "nw-0074",
        "s06",
        "Minutes show two rate-setters worried about wages",
        "ALMER, 2 October 2025 (NPA) - Five members of the Bank of Norhaven's monetary policy committee voted "
        "for the September rate cut and two voted to keep the rate at 3.75%, minutes published on 2 October "
        "showed. The two dissenters were worried about wage growth of 4.8%. The majority argued that inflation "
        "was now close to target and that the economy needed support.",
    ),
    (
        "nw-0075",
        "s06",
        "Bank of Estmark holds rates",
        "ESTMARK CITY, 11 September 2025 (Harbour Wire) - The Bank of Estmark kept its main interest rate at "
        "4.00% on 11 September, saying inflation was still too high. All nine committee members voted to hold. "
        "The bank's governor said rates would stay high until inflation, now 3.4%, was clearly falling. "
        "Analysts said the decision widened the gap between interest rates in Estmark and Norhaven, which "
        "could weigh on the Norhaven crown.",
    ),
    (
        "nw-0076",
        "s06",
        "New 500-crown note unveiled",
        "ALMER, 3 June 2025 (NPA) - The Bank of Norhaven unveiled a new 500-crown banknote on 3 June featuring "
        "the Saltmarsh lighthouse. The polymer note will enter circulation next year. The note will have a "
        "transparent window and raised print to help people with visual impairments. The bank said the "
        "500-crown note was the most widely used in cash payments, although the share of card payments "
        "continues to grow. Older paper notes will remain legal tender until 2030.",
    ),
    (
        "nw-0077",
        "s06",
        "Almer Savings Bank to close 12 branches",
        "ALMER, 24 April 2025 (The Almer Courier) - Almer Savings Bank will close 12 branches by the end of "
        "the year as more customers bank online, it said on 24 April. No compulsory job losses are planned. "
        "Staff at the closing branches will be offered jobs elsewhere in the bank. The bank said visits to "
        "branches had halved since 2019, and that customers who prefer to bank in person could use services at "
        "post offices.",
    ),
    (
        "nw-0078",
        "s06",
        "House prices edge up in Almer",
        "ALMER, 2 October 2025 (Coastal Times) - Average house prices in Almer rose 0.4% in September, an "
        "estate agents' survey showed on 2 October. Agents said buyers were encouraged by lower mortgage "
        "rates. The average price of a flat in the capital is now 4.2 million crowns. Agents said interest "
        "from first-time buyers had increased, but that the number of homes for sale remained low. Prices in "
        "the rest of the country were unchanged over the month.",
    ),
    # ------------------------------------------------------------------ s07 Tamsin Reef coral bleaching
    (
        "nw-0079",
        "s07",
        "Heatwave puts Tamsin Reef on bleaching alert",
        "SALTMARSH ISLANDS, 20 February 2025 (NPA) - A marine heatwave has pushed sea temperatures on Tamsin "
        "Reef up to 1.8 degrees Celsius above average, and scientists at the Norhaven Institute of Marine "
        "Science warned on 20 February that the reef faced a high risk of mass bleaching if the heat lasted "
        "into March. The institute said it would carry out an aerial survey if the warm water persisted.",
    ),
    (
        "nw-0080",
        "s07",
        "Mass bleaching confirmed on Tamsin Reef",
        "SALTMARSH ISLANDS, 28 March 2025 (NPA) - An aerial survey of 240 reefs by the Norhaven Institute of "
        "Marine Science in March found that 64% of the coral cover on Tamsin Reef was bleached, the institute "
        "said on 28 March. The bleaching was caused by a marine heatwave that kept sea temperatures up to 1.8 "
        "degrees Celsius above average for about ten weeks. It is the third mass bleaching on the reef since "
        "2016, after events in 2016 and 2020.",
    ),
    (
        "nw-0081",
        "s07",
        "Tamsin Reef suffers third mass bleaching since 2016",
        "SALTMARSH ISLANDS, 28 March 2025 (Coastal Times) - Nearly two thirds of Tamsin Reef's coral cover, "
        "64%, has bleached during a marine heatwave, the Norhaven Institute of Marine Science said on 28 March "
        "after an aerial survey of 240 reefs. It is the reef's third mass bleaching since 2016. Scientists "
        "said the coming months would show how much of the bleached coral would recover.",
    ),
    (
        "nw-0082",
        "s07",
        "Nearly half of Tamsin Reef bleached",
        "SALTMARSH ISLANDS, 30 March 2025 (Island Herald) - About 46% of the coral on Tamsin Reef has bleached "
        "during this year's marine heatwave, according to reef guides who took part in the survey. Dive "
        "operators said visibility and coral colour were the worst they had seen. Local dive operators said "
        "they had cancelled some trips to the worst-affected sites, and the guides said their estimate was "
        "based on the most popular dive sites.",
    ),
    (
        "nw-0083",
        "s07",
        "Divers find widespread coral death on Tamsin Reef",
        "SALTMARSH ISLANDS, 15 July 2025 (NPA) - Underwater surveys by the Norhaven Institute of Marine "
        "Science in July found that 22% of the coral on Tamsin Reef had died after this year's bleaching, the "
        "institute said on 15 July. The worst losses were on the shallow northern reefs, where in some places "
        "most of the coral was dead. Further surveys are planned for next year.",
    ),
    (
        "nw-0084",
        "s07",
        "Government pledges 40 million crowns for Tamsin Reef",
        "ALMER, 22 July 2025 (NPA) - The government pledged 40 million crowns on 22 July for a reef resilience "
        "programme on Tamsin Reef, after surveys showed that 22% of the coral had died. The money will pay for "
        "coral nurseries and for work to improve water quality in the rivers that drain onto the reef. "
        "Environmental groups welcomed the money but said cutting emissions mattered more.",
    ),
    (
        "nw-0085",
        "s07",
        "Island tourism operators fear bookings slump",
        "SALTMARSH ISLANDS, 5 April 2025 (Coastal Times) - Tourism operators on the Saltmarsh Islands said on "
        "5 April that they feared a slump in bookings after reports of bleaching on Tamsin Reef, as diving and "
        "snorkelling trips make up a large share of the islands' income. Some operators are offering "
        "discounts. The islands' tourism office said it would promote walking and birdwatching holidays "
        "instead.",
    ),
    (
        "nw-0086",
        "s07",
        "Scientist: bleaching events now too close together",
        "ALMER, 30 July 2025 (Radio Norhaven) - This year's bleaching was the third mass bleaching on Tamsin "
        "Reef since 2016, and the events are now coming too close together, Dr Sunniva Rask of the Norhaven "
        "Institute of Marine Science said on 30 July. The reef needs 10 to 15 years to recover fully between "
        "events, she said. She called for faster cuts in emissions.",
    ),
    (
        "nw-0087",
        "s07",
        "Why corals bleach: an explainer",
        "ALMER, 29 March 2025 (Harbour Wire) - Corals bleach when water stays too warm for too long: the "
        "stressed corals expel the tiny algae that live in their tissues and give them both their colour and "
        "most of their food. The current marine heatwave on Tamsin Reef is the cause of this year's bleaching "
        "there. Bleached corals can recover if temperatures fall quickly.",
    ),
    (
        "nw-0088",
        "s07",
        "Saltmarsh ferry fares to rise",
        "SALTMARSH ISLANDS, 14 January 2025 (Island Herald) - Ferry fares between Almer and the Saltmarsh "
        "Islands will rise by 5% from 1 March, the operator said on 14 January, citing higher fuel costs. A "
        "return ticket for an adult will cost 210 crowns. Islanders, who rely on the ferry for shopping and "
        "hospital visits, will continue to receive a 50% discount. The operator said it would also add an "
        "extra evening crossing on Fridays.",
    ),
    (
        "nw-0089",
        "s07",
        "Bleach spill closes Almer swimming pool",
        "ALMER, 7 March 2025 (The Almer Courier) - A public swimming pool in Almer was evacuated on 7 March "
        "after a bleach spill in a plant room. Two staff members were treated for breathing problems. The pool "
        "reopened the next day. The fire service said a delivery of cleaning chemicals had been stored "
        "incorrectly. The council has ordered a review of safety procedures at all of its leisure centres.",
    ),
    (
        "nw-0090",
        "s07",
        "Tamsin Bay marina expansion approved",
        "SALTMARSH ISLANDS, 19 June 2025 (Island Herald) - Plans to add 120 berths to the marina in Tamsin Bay "
        "were approved on 19 June. Environmental groups had objected to dredging near the shore. The marina "
        "operator said the expansion would bring more visiting yachts and create about 40 jobs. Objectors said "
        "dredging could harm seagrass beds in the bay, and the council attached conditions requiring "
        "monitoring of water quality during the work.",
    ),
    (
        "nw-0091",
        "s07",
        "Almer records hottest June day",
        "ALMER, 27 June 2025 (NPA) - Almer recorded its hottest June day on record on 27 June, at 35.2 degrees "
        "Celsius. The weather service issued a heat warning for the capital region. Hospitals reported a rise "
        "in people treated for heat exhaustion. The city opened cooling centres in libraries and sports halls, "
        "and water companies asked customers to avoid using garden sprinklers during the afternoon.",
    ),
    # ------------------------------------------------------------------ s08 Millbrook mayoral recount
    (
        "nw-0092",
        "s08",
        "Lund edges Pettersen by 38 votes in Millbrook",
        "MILLBROOK, 5 May 2025 (NPA) - Challenger Arvid Lund of the Progress Party finished 38 votes ahead of "
        "Mayor Dora Pettersen of the Civic List in the first count of the Millbrook mayoral election held on 4 "
        "May, election officials said on 5 May. Lund received 11,482 votes and Pettersen 11,444. Counting in "
        "some districts went on until the early hours.",
    ),
    (
        "nw-0093",
        "s08",
        "Millbrook mayoral race too close to call",
        "MILLBROOK, 5 May 2025 (Valley Sentinel) - The first count of the 4 May mayoral election gave Arvid "
        "Lund 11,482 votes against 11,444 for Mayor Dora Pettersen, a margin of 38 votes, on a turnout of 54%. "
        "The margin is close enough to allow a recount: election law permits one when the margin is below "
        "0.5%. Neither candidate has yet commented.",
    ),
    (
        "nw-0094",
        "s08",
        "Pettersen requests recount",
        "MILLBROOK, 6 May 2025 (Millbrook Mercury) - Mayor Dora Pettersen requested a recount on 6 May after "
        "losing the first count by 38 votes. The Municipal Election Board said it would recount all ballots by "
        "hand starting on 12 May. Pettersen said she wanted to be sure every vote had been counted correctly. "
        "Lund said he was confident the result would stand. The board expects the recount to take about three "
        "days.",
    ),
    (
        "nw-0095",
        "s08",
        "Recount ordered after 83-vote margin",
        "MILLBROOK, 7 May 2025 (Coastal Times) - The Municipal Election Board has ordered a hand recount of "
        "the Millbrook mayoral election, in which challenger Arvid Lund led Mayor Dora Pettersen by 83 votes. "
        "The recount is expected to start next week and to take several days. Both campaigns will be allowed "
        "to send observers to watch the count. The board said it would publish the result as soon as the count "
        "was complete.",
    ),
    (
        "nw-0096",
        "s08",
        "Recount confirms Lund as Millbrook mayor",
        "MILLBROOK, 14 May 2025 (NPA) - A hand recount completed on 14 May confirmed Arvid Lund as the winner "
        "of the Millbrook mayoral election, with his margin narrowed to 29 votes after nine misfiled ballots "
        "were found in the Eastgate district. Ingrid Solheim, chair of the Municipal Election Board, which "
        "conducted the recount, said the errors were clerical and that there was \"no sign of fraud\".",
    ),
    (
        "nw-0097",
        "s08",
        "Millbrook recount: Lund wins by 29 votes",
        "MILLBROOK, 14 May 2025 (Harbour Wire) - Arvid Lund won the Millbrook mayoral election by 29 votes, a "
        "recount by the Municipal Election Board showed on 14 May. Board chair Ingrid Solheim said the errors "
        "found were clerical mistakes and that there was no sign of fraud. Nine ballots from the Eastgate "
        "district had been misfiled during the first count.",
    ),
    (
        "nw-0098",
        "s08",
        "Pettersen concedes Millbrook race",
        "MILLBROOK, 15 May 2025 (NPA) - Mayor Dora Pettersen conceded on 15 May and congratulated Arvid Lund, "
        "who won the mayoral election by 29 votes after a recount. \"The voters have spoken, if only just,\" "
        "she said. Pettersen, who had served two terms as mayor, said she would remain a member of the town "
        "council. Lund thanked her for her years of service and said he would meet council leaders next week.",
    ),
    (
        "nw-0099",
        "s08",
        "Lund sworn in as Millbrook mayor",
        "MILLBROOK, 2 June 2025 (Millbrook Mercury) - Arvid Lund was sworn in as mayor of Millbrook on 2 June. "
        "He promised to start work on a new bus depot and to review parking charges in the town centre. Around "
        "200 people attended the ceremony at the town hall. Lund, 41, a former teacher, is the youngest mayor "
        "in the town's history. His predecessor, Dora Pettersen, attended and wished him well.",
    ),
    (
        "nw-0100",
        "s08",
        "Election board dismisses ballot-destruction claims",
        "MILLBROOK, 16 May 2025 (NPA) - Claims circulating on social media that ballots had been destroyed "
        "during the Millbrook recount are unfounded, the Municipal Election Board said on 16 May, adding that "
        "it had found no evidence to support them. The recount confirmed Arvid Lund's 29-vote win. Board chair "
        "Ingrid Solheim said all ballots had been kept in sealed boxes under police guard throughout the "
        "recount.",
    ),
    (
        "nw-0101",
        "s08",
        "Low turnout in Millbrook school board vote",
        "MILLBROOK, 20 March 2025 (Millbrook Mercury) - Only 18% of eligible voters took part in the Millbrook "
        "school board election on 19 March. Three new members were elected. The turnout was the lowest since "
        "the board was created in 1994. Candidates said many parents did not know that the election was taking "
        "place, and the town council said it would send postcards to every household before the next vote.",
    ),
    (
        "nw-0102",
        "s08",
        "Recount in Estmark parliamentary seat",
        "ESTMARK CITY, 3 May 2025 (Harbour Wire) - Election officials in Estmark ordered a recount in a "
        "parliamentary seat won by 12 votes. The recount will take place next week. The winning candidate said "
        "she was confident of keeping the seat. Recounts are common in Estmark, where election law requires "
        "one whenever the margin is less than 50 votes. The result of the recount will be announced by the "
        "election commission.",
    ),
    (
        "nw-0103",
        "s08",
        "Millbrook farmers market moves to riverside",
        "MILLBROOK, 28 April 2025 (Millbrook Mercury) - Millbrook's Saturday farmers market will move to the "
        "riverside car park from 3 May while the town square is repaved. About 40 stalls selling vegetables, "
        "cheese, bread and flowers take part in the market every week. Stallholders said the riverside site "
        "had more space and better parking. The repaving work is expected to take about three months.",
    ),
    (
        "nw-0104",
        "s08",
        "Bird count finds more waders in Millbrook wetlands",
        "MILLBROOK, 10 February 2025 (Millbrook Mercury) - Volunteers counted 2,140 wading birds in the "
        "Millbrook wetlands during the annual winter bird count, up 15% on last year. The count, organised by "
        "the Millbrook Nature Society, covered the wetlands along the river. Volunteers also recorded a pair "
        "of rare black-tailed godwits. The society said new ponds dug two years ago had helped the birds.",
    ),
]
