// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title DevDAI: an 18-decimal devnet stablecoin with EIP-2612 permit.
/// @notice DEVNET ONLY: `mint` is an open faucet, anyone can mint any amount.
contract DevDAI is ERC20, ERC20Permit {
    constructor() ERC20("Dai Stablecoin (devnet)", "DAI") ERC20Permit("Dai Stablecoin (devnet)") {}

    /// @notice Open faucet (devnet only): mints `amount` base units to `to`.
    /// @param to The recipient.
    /// @param amount The amount in base units (18 decimals).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
