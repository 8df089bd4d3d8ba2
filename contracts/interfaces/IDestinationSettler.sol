// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {OrderData} from "./IntentTypes.sol";

/// @title Records fills on the destination chain: the filler pays the recipient from its own inventory.
interface IDestinationSettler {
    /// @notice Whether an order was filled.
    enum FillStatus {
        Unfilled,
        Filled
    }

    /// @notice Who filled an order and where they want to be repaid on the origin.
    struct FillRecord {
        address filler;
        address repaymentAddr;
    }

    /// @notice The order names another destination chain.
    error WrongChain(uint256 expected, uint256 actual);
    /// @notice The order names another destination settler.
    error WrongSettler(address expected, address actual);
    /// @notice The fill deadline has passed.
    error FillDeadlinePassed(uint256 fillDeadline, uint256 nowTimestamp);
    /// @notice The order was already filled.
    error AlreadyFilled(bytes32 orderId, address filler);
    /// @notice The recipient received a different amount than `outputAmount`.
    error ShortTransfer(uint256 expected, uint256 actual);

    /// @notice `filler` paid `amount` to `recipient` for `orderId`.
    event Filled(
        bytes32 indexed orderId, address indexed filler, address repaymentAddr, address indexed recipient, uint256 amount
    );

    /// @notice Fills an order: moves exactly `outputAmount` from the caller to the recipient.
    /// @param orderData The order as opened on the origin.
    /// @param originChainId The origin chain.
    /// @param originSettler The origin settler (part of the order id).
    /// @param repaymentAddr Where the filler wants to be repaid on the origin.
    /// @return orderId The recomputed order id.
    function fill(OrderData calldata orderData, uint256 originChainId, address originSettler, address repaymentAddr)
        external
        returns (bytes32 orderId);

    /// @notice Whether `orderId` was filled.
    /// @param orderId The order id.
    /// @return The fill status.
    function fillStatus(bytes32 orderId) external view returns (FillStatus);

    /// @notice Who filled `orderId` and their repayment address (zero when unfilled).
    /// @param orderId The order id.
    /// @return The fill record.
    function fillOf(bytes32 orderId) external view returns (FillRecord memory);
}
