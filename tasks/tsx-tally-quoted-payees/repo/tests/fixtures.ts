/** A small household journal shared by the tests. */
export const HOUSEHOLD = `
; Household books
2024-01-01 open Assets:Bank:Checking USD
2024-01-01 open Assets:Bank:Savings USD
2024-01-01 open Assets:Cash
2024-01-01 open Liabilities:Card USD
2024-01-01 open Equity:Opening
2024-01-01 open Income:Salary
2024-01-01 open Expenses:Food:Groceries
2024-01-01 open Expenses:Food:Restaurants
2024-01-01 open Expenses:Rent

2024-01-01 * Opening balance
  Assets:Bank:Checking   2,500.00 USD
  Equity:Opening

2024-01-03 * Landlord #rent
  Expenses:Rent          1,200.00 USD
  Assets:Bank:Checking

2024-01-05 * "Corner Market" #food
  Expenses:Food:Groceries   84.15 USD
  Liabilities:Card

2024-01-12 * Pizzeria #food ; friday
  Expenses:Food:Restaurants   36.50 USD
  Liabilities:Card

2024-01-25 * ACME Corp payroll
  Assets:Bank:Checking   3,100.00 USD
  Income:Salary

2024-01-28 * Card payment
  Liabilities:Card        120.65 USD
  Assets:Bank:Checking

2024-01-31 balance Assets:Bank:Checking 4279.35 USD
`;
