/**
 * Content rules: industries the site states about itself in structured data, set with score 1 (spec 2.7: a
 * score of 1 marks an industry that was set rather than predicted). A schema.org business type names the
 * industry exactly (a `Restaurant` is a restaurant); an adult self-rating sets the adult industry.
 */
import type { Industry } from '../../../domain/brand.js';
import { findOrganization, nodeTypes, type JsonLdNode } from '../../page/json-ld.js';
import { withParent } from './taxonomy.js';

const TYPE_RULES: Record<string, string> = {
  Restaurant: 'ind_restaurants', CafeOrCoffeeShop: 'ind_restaurants', FastFoodRestaurant: 'ind_restaurants',
  Bakery: 'ind_restaurants', BarOrPub: 'ind_restaurants', Brewery: 'ind_food_products', Winery: 'ind_food_products',
  Airline: 'ind_airlines', Hotel: 'ind_lodging', Motel: 'ind_lodging', Resort: 'ind_lodging', Hostel: 'ind_lodging',
  BedAndBreakfast: 'ind_lodging', LodgingBusiness: 'ind_lodging', TravelAgency: 'ind_travel_booking',
  BankOrCreditUnion: 'ind_banking', InsuranceAgency: 'ind_insurance', AccountingService: 'ind_accounting',
  Hospital: 'ind_care_providers', MedicalClinic: 'ind_care_providers', Dentist: 'ind_care_providers', Physician: 'ind_care_providers',
  CollegeOrUniversity: 'ind_schools', School: 'ind_schools', HighSchool: 'ind_schools', ElementarySchool: 'ind_schools',
  MiddleSchool: 'ind_schools', Preschool: 'ind_schools', GovernmentOrganization: 'ind_government',
  NGO: 'ind_nonprofit', NonprofitOrganization: 'ind_nonprofit', LegalService: 'ind_legal', Attorney: 'ind_legal',
  AutoDealer: 'ind_automotive', AutoRepair: 'ind_automotive', RealEstateAgent: 'ind_property',
  NewsMediaOrganization: 'ind_news', ClothingStore: 'ind_fashion', ShoeStore: 'ind_fashion', JewelryStore: 'ind_fashion',
  FurnitureStore: 'ind_home', HealthAndBeautyBusiness: 'ind_beauty', ExerciseGym: 'ind_fitness',
  SportingGoodsStore: 'ind_sportswear', GroceryStore: 'ind_food_delivery', EmploymentAgency: 'ind_hr',
  GeneralContractor: 'ind_construction', HomeAndConstructionBusiness: 'ind_construction',
};

export const ADULT_INDUSTRY = 'ind_adult_content';

export function ruleIndustries(jsonLd: JsonLdNode[], label: string, adultRated: boolean): Industry[] {
  const org = findOrganization(jsonLd, label);
  const ids = (org ? nodeTypes(org) : []).map((t) => TYPE_RULES[t]).filter((id): id is string => id !== undefined);
  if (adultRated) ids.push(ADULT_INDUSTRY);
  return [...new Set(ids)].flatMap((id) => withParent(id, 1));
}
