// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Intent, OrderData} from "../interfaces/IntentTypes.sol";

/// @title The hashes Switchyard commits to: intent hashes and order ids.
/// @notice The TypeScript server reproduces both (src/contracts/hash-intent.ts, order-id.ts).
library IntentHash {
    /// @notice Type and version tag: no confusion with other structs or future formats.
    bytes32 internal constant INTENT_TAG = keccak256("Switchyard.Intent.v1");

    /// @notice keccak256(abi.encode(INTENT_TAG, factory, intent)).
    /// @param intent The intent.
    /// @param factory The factory whose accounts commit to the hash.
    /// @return The intent hash.
    function hashIntent(Intent calldata intent, address factory) internal pure returns (bytes32) {
        return keccak256(abi.encode(INTENT_TAG, factory, intent));
    }

    /// @notice keccak256(abi.encode(orderData, originChainId, originSettler)), ERC-7683 style.
    /// @param orderData The order.
    /// @param originChainId The chain the order was opened on.
    /// @param originSettler The settler it was opened with.
    /// @return The order id.
    function orderId(OrderData calldata orderData, uint256 originChainId, address originSettler)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(orderData, originChainId, originSettler));
    }
}
