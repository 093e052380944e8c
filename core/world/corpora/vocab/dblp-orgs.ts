/**
 * Institutions for the synthetic DBLP graph. DBLP affiliation strings are free text written in several styles
 * (`University of Toronto`; `Department of Computer Science, Tsinghua University, Beijing, China`;
 * `Tsinghua Univ, Dept Comp Sci, Beijing, Peoples R China`; `Computer Science University of Dayton, United
 * States`), so each institution carries what those styles need. `region` biases the names of its researchers.
 */
import type { NameRegion } from './dblp-names.ts';

export interface Institution {
  name: string;
  /** Web-of-Science style abbreviation (`Tsinghua Univ`). */
  short: string;
  city: string;
  country: string;
  /** Country as Web of Science writes it (`Peoples R China`, `USA`). */
  countryShort: string;
  /** Dominant naming tradition of its researchers; absent = world mix. */
  region?: NameRegion;
  /** Companies and labs have no departments. */
  company?: boolean;
}

/** Institutions of a country whose Web of Science spelling is the country's own name. */
function national(
  country: string,
  region: NameRegion,
  rows: readonly (readonly [name: string, short: string, city: string])[],
): Institution[] {
  return rows.map(([name, short, city]) => ({ name, short, city, country, countryShort: country, region }));
}

const cn = (name: string, short: string, city: string): Institution => ({
  name,
  short,
  city,
  country: 'China',
  countryShort: 'Peoples R China',
  region: 'chinese',
});
const us = (name: string, short: string, city: string, company = false): Institution => ({
  name,
  short,
  city,
  country: 'United States',
  countryShort: 'USA',
  company,
});

export const INSTITUTIONS: readonly Institution[] = [
  cn('Tsinghua University', 'Tsinghua Univ', 'Beijing'),
  cn('Peking University', 'Peking Univ', 'Beijing'),
  cn('Zhejiang University', 'Zhejiang Univ', 'Hangzhou'),
  cn('Shanghai Jiao Tong University', 'Shanghai Jiao Tong Univ', 'Shanghai'),
  cn('University of Science and Technology of China', 'Univ Sci & Technol China', 'Hefei'),
  cn('Harbin Institute of Technology', 'Harbin Inst Technol', 'Harbin'),
  cn('Wuhan University', 'Wuhan Univ', 'Wuhan'),
  cn('Sun Yat-sen University', 'Sun Yat Sen Univ', 'Guangzhou'),
  cn('Chinese Academy of Sciences', 'Chinese Acad Sci', 'Beijing'),
  cn('Fudan University', 'Fudan Univ', 'Shanghai'),
  cn('Nanjing University', 'Nanjing Univ', 'Nanjing'),
  cn('Huazhong University of Science and Technology', 'Huazhong Univ Sci & Technol', 'Wuhan'),
  cn('Xidian University', 'Xidian Univ', "Xi'an"),
  cn('Beihang University', 'Beihang Univ', 'Beijing'),
  cn('Sichuan University', 'Sichuan Univ', 'Chengdu'),
  cn('Tianjin University', 'Tianjin Univ', 'Tianjin'),
  cn('Southeast University', 'Southeast Univ', 'Nanjing'),
  cn('University of Electronic Science and Technology of China', 'Univ Elect Sci & Technol China', 'Chengdu'),
  cn('Northwestern Polytechnical University', 'Northwestern Polytech Univ', "Xi'an"),
  cn('Shandong University', 'Shandong Univ', 'Jinan'),
  { ...cn('Alibaba Group', 'Alibaba Grp', 'Hangzhou'), company: true },
  { ...cn('Tencent AI Lab', 'Tencent AI Lab', 'Shenzhen'), company: true },
  { ...cn('Microsoft Research Asia', 'Microsoft Res Asia', 'Beijing'), company: true },
  { ...cn('Huawei Technologies', 'Huawei Technol Co Ltd', 'Shenzhen'), company: true },
  {
    name: 'The Chinese University of Hong Kong',
    short: 'Chinese Univ Hong Kong',
    city: 'Hong Kong',
    country: 'China',
    countryShort: 'Peoples R China',
    region: 'chinese',
  },
  {
    name: 'National Taiwan University',
    short: 'Natl Taiwan Univ',
    city: 'Taipei',
    country: 'Taiwan',
    countryShort: 'Taiwan',
    region: 'chinese',
  },
  {
    name: 'National University of Singapore',
    short: 'Natl Univ Singapore',
    city: 'Singapore',
    country: 'Singapore',
    countryShort: 'Singapore',
    region: 'chinese',
  },
  {
    name: 'Nanyang Technological University',
    short: 'Nanyang Technol Univ',
    city: 'Singapore',
    country: 'Singapore',
    countryShort: 'Singapore',
    region: 'chinese',
  },
  ...national('South Korea', 'korean', [
    ['KAIST', 'Korea Adv Inst Sci & Technol', 'Daejeon'],
    ['Seoul National University', 'Seoul Natl Univ', 'Seoul'],
    ['Yonsei University', 'Yonsei Univ', 'Seoul'],
    ['Korea University', 'Korea Univ', 'Seoul'],
    ['POSTECH', 'Pohang Univ Sci & Technol', 'Pohang'],
    ['Sungkyunkwan University', 'Sungkyunkwan Univ', 'Suwon'],
    ['Hanyang University', 'Hanyang Univ', 'Seoul'],
  ]),
  ...national('Japan', 'japanese', [
    ['The University of Tokyo', 'Univ Tokyo', 'Tokyo'],
    ['Kyoto University', 'Kyoto Univ', 'Kyoto'],
    ['Osaka University', 'Osaka Univ', 'Osaka'],
    ['Tohoku University', 'Tohoku Univ', 'Sendai'],
    ['Tokyo Institute of Technology', 'Tokyo Inst Technol', 'Tokyo'],
    ['NTT Communication Science Laboratories', 'NTT Commun Sci Labs', 'Kyoto'],
  ]),
  ...national('India', 'indian', [
    ['Indian Institute of Technology Bombay', 'Indian Inst Technol Bombay', 'Mumbai'],
    ['Indian Institute of Technology Delhi', 'Indian Inst Technol Delhi', 'New Delhi'],
    ['Indian Institute of Science', 'Indian Inst Sci', 'Bangalore'],
    ['IIIT Hyderabad', 'Int Inst Informat Technol', 'Hyderabad'],
    ['Anna University', 'Anna Univ', 'Chennai'],
    ['Jadavpur University', 'Jadavpur Univ', 'Kolkata'],
  ]),
  ...(
    [
      ['Technical University of Munich', 'Tech Univ Munich', 'Munich', 'Germany'],
      ['RWTH Aachen University', 'Rhein Westfal TH Aachen', 'Aachen', 'Germany'],
      ['Max Planck Institute for Informatics', 'Max Planck Inst Informat', 'Saarbrucken', 'Germany'],
      [
        'German Research Centre for Artificial Intelligence',
        'German Res Ctr Artificial Intelligence',
        'Kaiserslautern',
        'Germany',
      ],
      ['Karlsruhe Institute of Technology', 'Karlsruhe Inst Technol', 'Karlsruhe', 'Germany'],
      ['University of Stuttgart', 'Univ Stuttgart', 'Stuttgart', 'Germany'],
      ['Johannes Kepler University of Linz', 'Johannes Kepler Univ Linz', 'Linz', 'Austria'],
      ['ETH Zurich', 'Swiss Fed Inst Technol', 'Zurich', 'Switzerland'],
      ['University of Amsterdam', 'Univ Amsterdam', 'Amsterdam', 'Netherlands'],
      ['Delft University of Technology', 'Delft Univ Technol', 'Delft', 'Netherlands'],
      ['KTH Royal Institute of Technology', 'KTH Royal Inst Technol', 'Stockholm', 'Sweden'],
      ['Aalto University', 'Aalto Univ', 'Espoo', 'Finland'],
      ['Technical University of Denmark', 'Tech Univ Denmark', 'Lyngby', 'Denmark'],
    ] as const
  ).map(([name, short, city, country]) => ({
    name,
    short,
    city,
    country,
    countryShort: country,
    region: 'germanic' as const,
  })),
  ...(
    [
      ['Inria', 'INRIA', 'Paris', 'France'],
      ['Sorbonne Université', 'Sorbonne Univ', 'Paris', 'France'],
      ['École Polytechnique', 'Ecole Polytech', 'Palaiseau', 'France'],
      ['Politecnico di Milano', 'Politecn Milan', 'Milan', 'Italy'],
      ['Sapienza University of Rome', 'Sapienza Univ Rome', 'Rome', 'Italy'],
      ['University of Bologna', 'Univ Bologna', 'Bologna', 'Italy'],
      ['Universitat Politècnica de Catalunya', 'Univ Politecn Cataluna', 'Barcelona', 'Spain'],
      ['Universidad Politécnica de Madrid', 'Univ Politecn Madrid', 'Madrid', 'Spain'],
      ['University of São Paulo', 'Univ Sao Paulo', 'Sao Paulo', 'Brazil'],
      ['Universidade Federal de Minas Gerais', 'Univ Fed Minas Gerais', 'Belo Horizonte', 'Brazil'],
      ['University of Porto', 'Univ Porto', 'Porto', 'Portugal'],
    ] as const
  ).map(([name, short, city, country]) => ({
    name,
    short,
    city,
    country,
    countryShort: country,
    region: 'romance' as const,
  })),
  ...(
    [
      ['University of Tehran', 'Univ Tehran', 'Tehran', 'Iran'],
      ['Sharif University of Technology', 'Sharif Univ Technol', 'Tehran', 'Iran'],
      ['Middle East Technical University', 'Middle East Tech Univ', 'Ankara', 'Turkey'],
      [
        'King Abdullah University of Science and Technology',
        'King Abdullah Univ Sci & Technol',
        'Thuwal',
        'Saudi Arabia',
      ],
      ['COMSATS University Islamabad', 'COMSATS Univ', 'Islamabad', 'Pakistan'],
      ['Cairo University', 'Cairo Univ', 'Giza', 'Egypt'],
    ] as const
  ).map(([name, short, city, country]) => ({
    name,
    short,
    city,
    country,
    countryShort: country,
    region: 'middleEastern' as const,
  })),
  ...(
    [
      ['Moscow Institute of Physics and Technology', 'Moscow Inst Phys & Technol', 'Moscow', 'Russia'],
      ['Skolkovo Institute of Science and Technology', 'Skolkovo Inst Sci & Technol', 'Moscow', 'Russia'],
      ['HSE University', 'HSE Univ', 'Moscow', 'Russia'],
      ['Warsaw University of Technology', 'Warsaw Univ Technol', 'Warsaw', 'Poland'],
      ['Czech Technical University in Prague', 'Czech Tech Univ', 'Prague', 'Czech Republic'],
      ['University of Zagreb', 'Univ Zagreb', 'Zagreb', 'Croatia'],
    ] as const
  ).map(([name, short, city, country]) => ({
    name,
    short,
    city,
    country,
    countryShort: country,
    region: 'slavic' as const,
  })),
  us('Massachusetts Institute of Technology', 'MIT', 'Cambridge'),
  us('Stanford University', 'Stanford Univ', 'Stanford'),
  us('Carnegie Mellon University', 'Carnegie Mellon Univ', 'Pittsburgh'),
  us('University of California, Berkeley', 'Univ Calif Berkeley', 'Berkeley'),
  us('University of Dayton', 'Univ Dayton', 'Dayton'),
  us('Argonne National Laboratory', 'Argonne Natl Lab', 'Lemont'),
  us('Georgia Institute of Technology', 'Georgia Inst Technol', 'Atlanta'),
  us('University of Michigan', 'Univ Michigan', 'Ann Arbor'),
  us('University of Illinois at Urbana-Champaign', 'Univ Illinois', 'Urbana'),
  us('Purdue University', 'Purdue Univ', 'W Lafayette'),
  us('University of Washington', 'Univ Washington', 'Seattle'),
  us('University of Texas at Austin', 'Univ Texas Austin', 'Austin'),
  us('Google', 'Google Inc', 'Mountain View', true),
  us('Microsoft Research', 'Microsoft Res', 'Redmond', true),
  us('IBM Research', 'IBM Res', 'Yorktown Heights', true),
  us('NVIDIA', 'NVIDIA Corp', 'Santa Clara', true),
  ...(
    [
      ['University of Oxford', 'Univ Oxford', 'Oxford', 'United Kingdom', 'England'],
      ['University of Cambridge', 'Univ Cambridge', 'Cambridge', 'United Kingdom', 'England'],
      ['Imperial College London', 'Imperial Coll London', 'London', 'United Kingdom', 'England'],
      ['University College London', 'UCL', 'London', 'United Kingdom', 'England'],
      ['University of Edinburgh', 'Univ Edinburgh', 'Edinburgh', 'United Kingdom', 'Scotland'],
      ['University of Toronto', 'Univ Toronto', 'Toronto', 'Canada', 'Canada'],
      ['McGill University', 'McGill Univ', 'Montreal', 'Canada', 'Canada'],
      ['University of Waterloo', 'Univ Waterloo', 'Waterloo', 'Canada', 'Canada'],
      ['University of Sydney', 'Univ Sydney', 'Sydney', 'Australia', 'Australia'],
      ['Monash University', 'Monash Univ', 'Clayton', 'Australia', 'Australia'],
    ] as const
  ).map(([name, short, city, country, countryShort]) => ({ name, short, city, country, countryShort })),
];

/** Departments: full form and Web-of-Science abbreviation. */
export const DEPARTMENTS: readonly (readonly [string, string])[] = [
  ['Department of Computer Science', 'Dept Comp Sci'],
  ['School of Computer Science and Engineering', 'Sch Comp Sci & Engn'],
  ['Department of Electrical Engineering', 'Dept Elect Engn'],
  ['School of Information Science and Technology', 'Sch Informat Sci & Technol'],
  ['Department of Mathematics', 'Dept Math'],
  ['College of Computer Science', 'Coll Comp Sci'],
  ['Institute of Automation', 'Inst Automat'],
  ['School of Software', 'Sch Software'],
  ['Department of Biomedical Engineering', 'Dept Biomed Engn'],
  ['Department of Statistics', 'Dept Stat'],
];
